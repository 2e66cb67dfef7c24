package cocoon

import (
	"encoding/json"
	"os"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
)

// TestWriteResults writes what each benchmarked call returns to $COCOON_BENCH_RESULTS, so the
// runner can check that both sides compute the same thing before it times them.
func TestWriteResults(t *testing.T) {
	path := os.Getenv("COCOON_BENCH_RESULTS")
	if path == "" {
		t.Skip("COCOON_BENCH_RESULTS not set")
	}
	spec := FromAgentSpec(fixture.AgentSpec, fixture.VMName, fixture.SnapshotPolicy, fixture.ForkFrom)
	applied := &corev1.Pod{}
	spec.Apply(applied)
	quantities := map[string]string{}
	for _, text := range fixture.Quantities {
		q, err := resource.ParseQuantity(text)
		if err != nil {
			t.Fatal(err)
		}
		quantities[text] = q.String()
	}
	patch3, err3 := AnnotationsMergePatch(fixture.Delta3)
	patch12, err12 := AnnotationsMergePatch(fixture.Delta12)
	pods := fixture.reconcilePodList(fixture.ReconcilePods[0])
	reconciled, errR := reconcile(pods[len(pods)-1])
	mainPod, errP := BuildAgentPod(&fixture.CocoonSet, 0, "", "", OperatorScheme())
	if err3 != nil || err12 != nil || errR != nil || errP != nil {
		t.Fatal(err3, err12, errR, errP)
	}
	mainPodJSON, err := json.Marshal(mainPod)
	if err != nil {
		t.Fatal(err)
	}
	out, err := json.Marshal(map[string]any{
		"parseVMSpec":         ParseVMSpec(&fixture.Pod),
		"readLifecycleStatus": ReadLifecycleStatus(&fixture.Pod),
		"roleForPod":          RoleForPod(&fixture.Pod, fixture.VMName),
		"fromAgentSpec":       spec,
		"applyVMSpec":         applied.Annotations,
		"quantity":            quantities,
		"mergePatch3":         string(patch3),
		"mergePatch12":        string(patch12),
		"reconcileLastPod":    reconciled,
		"buildMainPod":        string(mainPodJSON),
		"podSpecMatchesAgent": PodSpecMatchesAgent(mainPod, &fixture.CocoonSet, 0),
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, out, 0o644); err != nil {
		t.Fatal(err)
	}
}
