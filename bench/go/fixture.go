package bench

import (
	"encoding/json"
	"fmt"
	"os"
	"strconv"

	corev1 "k8s.io/api/core/v1"
)

// Fixture holds the inputs both sides measure: bench/fixtures/hot-path.json, or $COCOON_BENCH_FIXTURE.
type Fixture struct {
	Pod            corev1.Pod     `json:"pod"`
	VMName         string         `json:"vmName"`
	AgentSpec      AgentSpec      `json:"agentSpec"`
	SnapshotPolicy string         `json:"snapshotPolicy"`
	ForkFrom       string         `json:"forkFrom"`
	Delta3         map[string]any `json:"delta3"`
	Delta12        map[string]any `json:"delta12"`
	Quantities     []string       `json:"quantities"`
	ReconcilePods  int            `json:"reconcilePods"`
}

// LoadFixture decodes the fixture the way the operator decodes objects: with encoding/json, so
// the agent spec's storage is parsed once into a resource.Quantity.
func LoadFixture() (*Fixture, error) {
	path := os.Getenv("COCOON_BENCH_FIXTURE")
	if path == "" {
		path = "../fixtures/hot-path.json"
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read fixture: %w", err)
	}
	var f Fixture
	if err := json.Unmarshal(raw, &f); err != nil {
		return nil, fmt.Errorf("decode fixture %s: %w", path, err)
	}
	return &f, nil
}

// ReconcilePodList is the fixture pod as pod i of a set: demo-<i>, VM vk-prod-demo-<i>, observed generation i.
func (f *Fixture) ReconcilePodList() []*corev1.Pod {
	pods := make([]*corev1.Pod, f.ReconcilePods)
	for i := range pods {
		pod := f.Pod.DeepCopy()
		pod.Name = "demo-" + strconv.Itoa(i)
		pod.Annotations[annotationVMName] = "vk-prod-demo-" + strconv.Itoa(i)
		pod.Annotations[annotationLifecycleObservedGeneration] = strconv.Itoa(i)
		pods[i] = pod
	}
	return pods
}

// ReconcileResult is what one reconcile-shaped pass computes for a pod.
type ReconcileResult struct {
	Spec      VMSpec          `json:"spec"`
	Status    LifecycleStatus `json:"status"`
	Role      string          `json:"role"`
	Hibernate bool            `json:"hibernate"`
	Patch     string          `json:"patch"`
}

// Reconcile is the per-pod work of a status pass: read spec, lifecycle, role and hibernate flag,
// then build the lifecycle merge patch the controller would send.
func Reconcile(pod *corev1.Pod) (ReconcileResult, error) {
	spec := ParseVMSpec(pod)
	status := ReadLifecycleStatus(pod)
	role := RoleForPod(pod, spec.VMName)
	hibernate := ReadHibernateState(pod)
	next := LifecycleStatus{State: "ready", ObservedGeneration: status.ObservedGeneration + 1}
	patch, err := AnnotationsMergePatch(next.Annotations())
	return ReconcileResult{Spec: spec, Status: status, Role: role, Hibernate: hibernate, Patch: string(patch)}, err
}
