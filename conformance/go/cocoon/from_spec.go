package cocoon

// FromAgentSpec is meta.FromAgentSpec: the VM spec the operator stamps on an agent pod. Agent VMs
// are always managed.
func FromAgentSpec(spec AgentSpec, vmName string, snapshotPolicy SnapshotPolicy, forkFrom string) VMSpec {
	return VMSpec{
		VMName:         vmName,
		Image:          spec.Image,
		Mode:           string(spec.Mode.Default()),
		OS:             string(spec.OS.Default()),
		Storage:        QuantityString(spec.Storage),
		Network:        spec.Network,
		SnapshotPolicy: string(snapshotPolicy.Default()),
		ForkFrom:       forkFrom,
		Managed:        true,
		ForcePull:      spec.ForcePull,
		NoDirectIO:     spec.NoDirectIO,
		ConnType:       string(spec.ConnType),
		Backend:        string(spec.Backend.Default()),
		ProbePort:      formatPort(spec.ProbePort),
	}
}

// FromToolboxSpec is meta.FromToolboxSpec: FromAgentSpec's mapping with the toolbox's mode, no
// fork source, and static-mode toolboxes unmanaged. Go repeats the struct literal; only its result
// is checked, so it reuses FromAgentSpec, the one timed against the TypeScript twin.
func FromToolboxSpec(spec ToolboxSpec, vmName string, snapshotPolicy SnapshotPolicy) VMSpec {
	s := FromAgentSpec(AgentSpec{Image: spec.Image, VMOptions: spec.VMOptions}, vmName, snapshotPolicy, "")
	s.Mode, s.Managed = string(spec.Mode.Default()), spec.Mode != ToolboxModeStatic
	return s
}
