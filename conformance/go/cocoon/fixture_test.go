package cocoon

import (
	"encoding/json"
	"fmt"
	"os"
	"strconv"

	corev1 "k8s.io/api/core/v1"
)

// defaultFixturePath is bench/fixtures/hot-path.json, from this directory.
const defaultFixturePath = "../../../bench/fixtures/hot-path.json"

// benchFixture holds the inputs both sides measure: bench/fixtures/hot-path.json, or $COCOON_BENCH_FIXTURE.
type benchFixture struct {
	Pod            corev1.Pod     `json:"pod"`
	VMName         string         `json:"vmName"`
	AgentSpec      AgentSpec      `json:"agentSpec"`
	SnapshotPolicy SnapshotPolicy `json:"snapshotPolicy"`
	ForkFrom       string         `json:"forkFrom"`
	Delta3         map[string]any `json:"delta3"`
	Delta12        map[string]any `json:"delta12"`
	Quantities     []string       `json:"quantities"`
	ReconcilePods  []int          `json:"reconcilePods"`
	CocoonSet      CocoonSet      `json:"cocoonSet"`
}

// loadBenchFixture decodes the fixture the way the operator decodes objects: with encoding/json,
// so the agent spec's storage is parsed once into a resource.Quantity that caches its text.
func loadBenchFixture() (*benchFixture, error) {
	path := os.Getenv("COCOON_BENCH_FIXTURE")
	if path == "" {
		path = defaultFixturePath
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read fixture: %w", err)
	}
	var f benchFixture
	if err := json.Unmarshal(raw, &f); err != nil {
		return nil, fmt.Errorf("decode fixture %s: %w", path, err)
	}
	return &f, nil
}

// reconcilePodList is the fixture pod as pod i of a set of n: demo-<i>, VM vk-prod-demo-<i>, observed generation i.
func (f *benchFixture) reconcilePodList(n int) []*corev1.Pod {
	pods := make([]*corev1.Pod, n)
	for i := range pods {
		pod := f.Pod.DeepCopy()
		pod.Name = "demo-" + strconv.Itoa(i)
		pod.Annotations[AnnotationVMName] = "vk-prod-demo-" + strconv.Itoa(i)
		pod.Annotations[AnnotationLifecycleObservedGeneration] = strconv.Itoa(i)
		pods[i] = pod
	}
	return pods
}
