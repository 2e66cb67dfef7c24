package cocoon

import (
	"os"
	"strconv"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
)

// The Go side of `npm run bench` (bench/compare.ts): each benchmark is named as its TypeScript
// case, on the inputs of bench/fixtures/hot-path.json.

var fixture *benchFixture

// One sink per result type, as Go code keeps results in typed variables: a sink of type any would
// box each result (an allocation per call that the functions themselves do not make).
var (
	sinkVMSpec    VMSpec
	sinkLifecycle LifecycleStatus
	sinkString    string
	sinkPod       *corev1.Pod
	sinkBytes     []byte
	sinkReconcile reconcileResult
	sinkBool      bool
)

func TestMain(m *testing.M) {
	f, err := loadBenchFixture()
	if err != nil {
		panic(err)
	}
	fixture = f
	os.Exit(m.Run())
}

func BenchmarkParseVMSpec(b *testing.B) {
	for b.Loop() {
		sinkVMSpec = ParseVMSpec(&fixture.Pod)
	}
}

func BenchmarkReadLifecycleStatus(b *testing.B) {
	for b.Loop() {
		sinkLifecycle = ReadLifecycleStatus(&fixture.Pod)
	}
}

func BenchmarkRoleForPod(b *testing.B) {
	for b.Loop() {
		sinkString = RoleForPod(&fixture.Pod, fixture.VMName)
	}
}

// The storage quantity was decoded once with the fixture, so its String() is the cached text, as
// for a CocoonSet the operator reads from its cache.
func BenchmarkFromAgentSpec(b *testing.B) {
	for b.Loop() {
		sinkVMSpec = FromAgentSpec(fixture.AgentSpec, fixture.VMName, fixture.SnapshotPolicy, fixture.ForkFrom)
	}
}

func BenchmarkApplyVMSpec(b *testing.B) {
	spec := FromAgentSpec(fixture.AgentSpec, fixture.VMName, fixture.SnapshotPolicy, fixture.ForkFrom)
	for b.Loop() {
		pod := &corev1.Pod{}
		spec.Apply(pod)
		sinkPod = pod
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
				sinkString = q.String()
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
				sinkBytes = patch
			}
		})
	}
}

// One op is one pod of a reconcile-shaped pass over N pods, one sub-benchmark per N in ReconcilePods.
func BenchmarkReconcilePerPod(b *testing.B) {
	for _, n := range fixture.ReconcilePods {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			pods := fixture.reconcilePodList(n)
			i := 0
			for b.Loop() {
				result, err := reconcile(pods[i])
				if err != nil {
					b.Fatal(err)
				}
				sinkReconcile = result
				i++
				if i == len(pods) {
					i = 0
				}
			}
		})
	}
}

// The operator's main-pod builder (BuildAgentPod, slot 0) on the fixture's CocoonSet, with the
// operator's scheme for the owner reference. As in the operator, the pod shares the set's resource
// maps, so after the first call it writes ephemeral-storage into maps that already hold it.
func BenchmarkBuildMainPod(b *testing.B) {
	scheme := OperatorScheme()
	for b.Loop() {
		pod, err := BuildAgentPod(&fixture.CocoonSet, 0, "", "", scheme)
		if err != nil {
			b.Fatal(err)
		}
		sinkPod = pod
	}
}

// The operator's drift check on the live main pod, run on every agent pod of every reconcile.
func BenchmarkPodSpecMatchesAgent(b *testing.B) {
	pod, err := BuildAgentPod(&fixture.CocoonSet, 0, "", "", OperatorScheme())
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		sinkBool = PodSpecMatchesAgent(pod, &fixture.CocoonSet, 0)
	}
}
