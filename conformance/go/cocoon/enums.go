package cocoon

import "cmp"

// The apis/v1 enums that meta.FromAgentSpec and FromToolboxSpec default; the other enums are
// plain strings in the types, as only their wire form matters.
type (
	AgentMode      string
	ToolboxMode    string
	OSType         string
	SnapshotPolicy string
	ConnType       string
	Backend        string
)

// ToolboxModeStatic marks a toolbox the operator does not manage.
const ToolboxModeStatic ToolboxMode = "static"

// Default is the mode, or "clone".
func (m AgentMode) Default() AgentMode { return cmp.Or(m, "clone") }

// Default is the mode, or "run".
func (m ToolboxMode) Default() ToolboxMode { return cmp.Or(m, "run") }

// Default is the OS, or "linux".
func (o OSType) Default() OSType { return cmp.Or(o, "linux") }

// Default is the policy, or "always".
func (p SnapshotPolicy) Default() SnapshotPolicy { return cmp.Or(p, "always") }

// Default is the backend, or "cloud-hypervisor".
func (b Backend) Default() Backend { return cmp.Or(b, "cloud-hypervisor") }
