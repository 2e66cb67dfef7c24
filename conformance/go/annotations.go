package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"
)

// applyMergePatch applies a TS-written annotations merge patch (RFC 7386) to p, as the apiserver
// would: a string sets a key, null deletes it. Anything but {"metadata":{"annotations":{...}}} is
// a fault, so a malformed patch never passes as a Go verdict.
func applyMergePatch(p *pod, patch string) error {
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
			ensurePodAnnotations(p)[key] = *value
		}
	}
	return nil
}

func marshalPatch(annotations map[string]any) (string, error) {
	b, err := AnnotationsMergePatch(annotations)
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
	p := &pod{Annotations: args.Annotations}
	status := ReadLifecycleStatus(p)
	return map[string]any{
		"vmSpec":               ParseVMSpec(p),
		"vmRuntime":            ParseVMRuntime(p),
		"lifecycle":            status,
		"lifecycleKey":         status.Snapshot(),
		"cocoonSetGeneration":  strconv.FormatInt(readInt64Annotation(p, annotationCocoonSetGeneration), 10),
		"hibernate":            p.Annotations[annotationHibernate] == annotationTrue,
		"restoreFromHibernate": p.Annotations[annotationRestoreFromHibernate] == annotationTrue,
		"keepSnapshotOnDelete": p.Annotations[annotationKeepSnapshotOnDelete] == annotationTrue,
		"hibernatedOnNode":     p.Annotations[annotationHibernatedOnNode],
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

func roundTripOf[T any](raw json.RawMessage, write func(T) map[string]any, read func(*pod) T) (any, error) {
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
		p := &pod{}
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

func applied(apply func(*pod)) map[string]any {
	p := &pod{}
	apply(p)
	return asDelta(p.Annotations)
}

// vmSpecRoundTrip: {"value": VMSpec, "patch": TS patch|null}; writes with VMSpec.Apply, reads with ParseVMSpec.
func vmSpecRoundTrip(raw json.RawMessage) (any, error) {
	return roundTripOf(raw, func(s VMSpec) map[string]any { return applied(s.Apply) }, ParseVMSpec)
}

// vmRuntimeRoundTrip: as vmSpec, with VMRuntime.Apply and ParseVMRuntime.
func vmRuntimeRoundTrip(raw json.RawMessage) (any, error) {
	return roundTripOf(raw, func(r VMRuntime) map[string]any { return applied(r.Apply) }, ParseVMRuntime)
}

// lifecycleRoundTrip: as vmSpec, with LifecycleStatus.Annotations() and ReadLifecycleStatus; the
// answer adds Snapshot() of the value sent.
func lifecycleRoundTrip(raw json.RawMessage) (any, error) {
	answer, err := roundTripOf(raw, LifecycleStatus.Annotations, ReadLifecycleStatus)
	if err != nil {
		return nil, err
	}
	var args struct {
		Value LifecycleStatus `json:"value"`
	}
	if err := json.Unmarshal(raw, &args); err != nil {
		return nil, err
	}
	return struct {
		roundTrip[LifecycleStatus]
		Key string `json:"key"`
	}{answer.(roundTrip[LifecycleStatus]), args.Value.Snapshot()}, nil
}
