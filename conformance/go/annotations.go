package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"cocoon-common-conformance-oracle/cocoon"
)

// podWith is a pod carrying only these annotations: all the meta readers look at.
func podWith(annotations map[string]string) *corev1.Pod {
	return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Annotations: annotations}}
}

// applyMergePatch applies a TS-written annotations merge patch (RFC 7386) to p, as the apiserver
// would: a string sets a key, null deletes it. Anything but {"metadata":{"annotations":{...}}} is
// a fault, so a malformed patch never passes as a Go verdict.
func applyMergePatch(p *corev1.Pod, patch string) error {
	var body struct {
		Metadata *struct {
			Annotations map[string]*string `json:"annotations"`
		} `json:"metadata"`
	}
	dec := json.NewDecoder(bytes.NewReader([]byte(patch)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&body); err != nil {
		return err
	}
	if dec.More() {
		return errors.New("trailing data after the patch")
	}
	if body.Metadata == nil || body.Metadata.Annotations == nil {
		return errors.New("patch has no metadata.annotations object")
	}
	for key, value := range body.Metadata.Annotations {
		if value == nil {
			delete(p.Annotations, key)
		} else {
			if p.Annotations == nil {
				p.Annotations = map[string]string{}
			}
			p.Annotations[key] = *value
		}
	}
	return nil
}

func marshalPatch(annotations map[string]any) (string, error) {
	b, err := cocoon.AnnotationsMergePatch(annotations)
	return string(b), err
}

// mergePatch: {"delta": {key: string|null}} → {"patch": k8s.AnnotationsMergePatch(delta)}.
func mergePatch(raw json.RawMessage) (any, error) {
	var args struct {
		Delta map[string]*string `json:"delta"`
	}
	if err := decodeArgs(raw, &args); err != nil {
		return nil, err
	}
	delta := make(map[string]any, len(args.Delta))
	for k, v := range args.Delta {
		if v == nil {
			delta[k] = nil
		} else {
			delta[k] = *v
		}
	}
	patch, err := marshalPatch(delta)
	return map[string]string{"patch": patch}, err
}

// readAll: {"annotations": {...}} → what every meta reader returns for a pod carrying them.
func readAll(raw json.RawMessage) (any, error) {
	var args struct {
		Annotations map[string]string `json:"annotations"`
	}
	if err := decodeArgs(raw, &args); err != nil {
		return nil, err
	}
	p := podWith(args.Annotations)
	status := cocoon.ReadLifecycleStatus(p)
	return map[string]any{
		"vmSpec":               cocoon.ParseVMSpec(p),
		"vmRuntime":            cocoon.ParseVMRuntime(p),
		"lifecycle":            status,
		"lifecycleKey":         status.Snapshot(),
		"cocoonSetGeneration":  strconv.FormatInt(cocoon.ReadCocoonSetGeneration(p), 10),
		"hibernate":            cocoon.ReadHibernateState(p),
		"restoreFromHibernate": cocoon.ReadRestoreFromHibernate(p),
		"keepSnapshotOnDelete": cocoon.ReadKeepSnapshotOnDelete(p),
		"hibernatedOnNode":     p.Annotations[cocoon.AnnotationHibernatedOnNode],
	}, nil
}

// roundTrip is the answer of the vmSpec, vmRuntime and lifecycle ops.
type roundTrip[T any] struct {
	// Written is Go's patch for the value TS sent: Apply on a fresh pod (or Annotations()), then
	// AnnotationsMergePatch.
	Written string `json:"written"`
	// Read is what Go reads after applying TS's patch to a fresh pod; Reencoded is Go's patch for it.
	Read      *T      `json:"read,omitempty"`
	Reencoded *string `json:"reencoded,omitempty"`
}

func roundTripOf[T any](raw json.RawMessage, write func(T) map[string]any, read func(*corev1.Pod) T) (any, error) {
	var args struct {
		Value T       `json:"value"`
		Patch *string `json:"patch"`
	}
	if err := decodeArgs(raw, &args); err != nil {
		return nil, err
	}
	var answer roundTrip[T]
	var err error
	if answer.Written, err = marshalPatch(write(args.Value)); err != nil {
		return nil, err
	}
	if args.Patch != nil {
		p := &corev1.Pod{}
		if err := applyMergePatch(p, *args.Patch); err != nil {
			return nil, err
		}
		value := read(p)
		reencoded, err := marshalPatch(write(value))
		if err != nil {
			return nil, err
		}
		answer.Read, answer.Reencoded = &value, &reencoded
	}
	return answer, nil
}

func applied(apply func(*corev1.Pod)) map[string]any {
	p := &corev1.Pod{}
	apply(p)
	return asDelta(p.Annotations)
}

// vmSpecRoundTrip: {"value": VMSpec, "patch": TS patch|null}; writes with VMSpec.Apply, reads with ParseVMSpec.
func vmSpecRoundTrip(raw json.RawMessage) (any, error) {
	return roundTripOf(raw, func(s cocoon.VMSpec) map[string]any { return applied(s.Apply) }, cocoon.ParseVMSpec)
}

// vmRuntimeRoundTrip: as vmSpec, with VMRuntime.Apply and ParseVMRuntime.
func vmRuntimeRoundTrip(raw json.RawMessage) (any, error) {
	return roundTripOf(raw, func(r cocoon.VMRuntime) map[string]any { return applied(r.Apply) }, cocoon.ParseVMRuntime)
}

// lifecycleRoundTrip: as vmSpec, with LifecycleStatus.Annotations() and ReadLifecycleStatus; the
// answer adds Snapshot() of the value sent.
func lifecycleRoundTrip(raw json.RawMessage) (any, error) {
	answer, err := roundTripOf(raw, cocoon.LifecycleStatus.Annotations, cocoon.ReadLifecycleStatus)
	if err != nil {
		return nil, err
	}
	var args struct {
		Value cocoon.LifecycleStatus `json:"value"`
	}
	if err := json.Unmarshal(raw, &args); err != nil {
		return nil, err
	}
	return struct {
		roundTrip[cocoon.LifecycleStatus]
		Key string `json:"key"`
	}{answer.(roundTrip[cocoon.LifecycleStatus]), args.Value.Snapshot()}, nil
}
