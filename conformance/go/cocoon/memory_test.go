package cocoon

import (
	"encoding/json"
	"os"
	"runtime"
	"testing"

	corev1 "k8s.io/api/core/v1"
)

// reconcileMemory is what one size of the reconcile pass costs in memory, in bytes: the Go
// counterpart of bench/reconcile-memory.ts.
type reconcileMemory struct {
	Pods int `json:"pods"`
	// HeapPerPod is the live heap's growth (HeapAlloc after a full collection) when the pods are built, over N.
	HeapPerPod float64 `json:"heapPerPod"`
	// AllocatedPerPass and AllocsPerPass are the bytes and objects one pass allocates (TotalAlloc and Mallocs deltas).
	AllocatedPerPass uint64 `json:"allocatedPerPass"`
	AllocsPerPass    uint64 `json:"allocsPerPass"`
}

func reconcilePass(pods []*corev1.Pod) error {
	for _, pod := range pods {
		result, err := reconcile(pod)
		if err != nil {
			return err
		}
		sinkReconcile = result
	}
	return nil
}

func measureReconcileMemory(n int) (reconcileMemory, error) {
	var before, built, start, end runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	pods := fixture.reconcilePodList(n)
	runtime.GC()
	runtime.ReadMemStats(&built)
	// A first pass, as the TypeScript side warms its code, so one-time lazy setup is not counted.
	if err := reconcilePass(pods); err != nil {
		return reconcileMemory{}, err
	}
	runtime.GC()
	runtime.ReadMemStats(&start)
	err := reconcilePass(pods)
	runtime.ReadMemStats(&end)
	runtime.KeepAlive(pods)
	return reconcileMemory{
		Pods:             n,
		HeapPerPod:       float64(int64(built.HeapAlloc)-int64(before.HeapAlloc)) / float64(n),
		AllocatedPerPass: end.TotalAlloc - start.TotalAlloc,
		AllocsPerPass:    end.Mallocs - start.Mallocs,
	}, err
}

// TestReconcileMemory writes the memory of the reconcile pass, for every size in ReconcilePods,
// to $COCOON_BENCH_MEMORY as a JSON array.
func TestReconcileMemory(t *testing.T) {
	path := os.Getenv("COCOON_BENCH_MEMORY")
	if path == "" {
		t.Skip("COCOON_BENCH_MEMORY not set")
	}
	sizes := make([]reconcileMemory, 0, len(fixture.ReconcilePods))
	for _, n := range fixture.ReconcilePods {
		m, err := measureReconcileMemory(n)
		if err != nil {
			t.Fatal(err)
		}
		if m.HeapPerPod <= 0 || m.AllocatedPerPass == 0 {
			t.Fatalf("N = %d: implausible measurement %+v", n, m)
		}
		sizes = append(sizes, m)
	}
	out, err := json.Marshal(sizes)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, out, 0o644); err != nil {
		t.Fatal(err)
	}
}
