package bench

import (
	"encoding/json"
	"os"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
)

var (
	fixture *Fixture
	sink    any
)

func TestMain(m *testing.M) {
	f, err := LoadFixture()
	if err != nil {
		panic(err)
	}
	fixture = f
	os.Exit(m.Run())
}

func BenchmarkParseVMSpec(b *testing.B) {
	for b.Loop() {
		sink = ParseVMSpec(&fixture.Pod)
	}
}

func BenchmarkReadLifecycleStatus(b *testing.B) {
	for b.Loop() {
		sink = ReadLifecycleStatus(&fixture.Pod)
	}
}

func BenchmarkRoleForPod(b *testing.B) {
	for b.Loop() {
		sink = RoleForPod(&fixture.Pod, fixture.VMName)
	}
}

// The storage quantity was decoded once with the fixture, so its String() is the cached text, as
// for a CocoonSet the operator reads from its cache.
func BenchmarkFromAgentSpec(b *testing.B) {
	for b.Loop() {
		sink = FromAgentSpec(fixture.AgentSpec, fixture.VMName, fixture.SnapshotPolicy, fixture.ForkFrom)
	}
}

func BenchmarkApplyVMSpec(b *testing.B) {
	spec := FromAgentSpec(fixture.AgentSpec, fixture.VMName, fixture.SnapshotPolicy, fixture.ForkFrom)
	for b.Loop() {
		pod := &corev1.Pod{}
		spec.Apply(pod)
		sink = pod
	}
}

func BenchmarkQuantity(b *testing.B) {
	for _, text := range fixture.Quantities {
		b.Run(text, func(b *testing.B) {
			for b.Loop() {
				q, err := resource.ParseQuantity(text)
				if err != nil {
					b.Fatal(err)
				}
				sink = q.String()
			}
		})
	}
}

func BenchmarkAnnotationsMergePatch(b *testing.B) {
	for name, delta := range map[string]map[string]any{"3": fixture.Delta3, "12": fixture.Delta12} {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				patch, err := AnnotationsMergePatch(delta)
				if err != nil {
					b.Fatal(err)
				}
				sink = patch
			}
		})
	}
}

// One op is one pod of a reconcile-shaped pass over ReconcilePods pods.
func BenchmarkReconcilePerPod(b *testing.B) {
	pods := fixture.ReconcilePodList()
	i := 0
	for b.Loop() {
		result, err := Reconcile(pods[i])
		if err != nil {
			b.Fatal(err)
		}
		sink = result
		i++
		if i == len(pods) {
			i = 0
		}
	}
}

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
	pods := fixture.ReconcilePodList()
	reconciled, errR := Reconcile(pods[len(pods)-1])
	if err3 != nil || err12 != nil || errR != nil {
		t.Fatal(err3, err12, errR)
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
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, out, 0o644); err != nil {
		t.Fatal(err)
	}
}
