package main

import (
	"encoding/json"
	"fmt"

	"sigs.k8s.io/controller-runtime/pkg/client"

	"cocoon-common-conformance-oracle/cocoon"
)

// mergeFromAnswer is the body controller-runtime sends, or why Go could not build it.
type mergeFromAnswer struct {
	Patch *string `json:"patch"`
	Error string  `json:"error,omitempty"`
}

// mergeFrom: {"kind":"CocoonSet"|"CocoonHibernation","before":{...},"after":{...},"optimisticLock":bool}
// → the body of client.MergeFrom(before).Data(after), as k8s.Patch and k8s.PatchStatus send it:
// both sides are decoded into the typed struct first, as the operator holds them.
func mergeFrom(raw json.RawMessage) (any, error) {
	var args struct {
		Kind           string          `json:"kind"`
		Before         json.RawMessage `json:"before"`
		After          json.RawMessage `json:"after"`
		OptimisticLock bool            `json:"optimisticLock"`
	}
	if err := decodeArgs(raw, &args); err != nil {
		return nil, err
	}
	var before, after client.Object
	switch args.Kind {
	case "CocoonSet":
		before, after = &cocoon.CocoonSet{}, &cocoon.CocoonSet{}
	case "CocoonHibernation":
		before, after = &cocoon.CocoonHibernation{}, &cocoon.CocoonHibernation{}
	default:
		return nil, fmt.Errorf("unknown kind %q", args.Kind)
	}
	if err := json.Unmarshal(args.Before, before); err != nil {
		return mergeFromAnswer{Error: "before: " + err.Error()}, nil
	}
	if err := json.Unmarshal(args.After, after); err != nil {
		return mergeFromAnswer{Error: "after: " + err.Error()}, nil
	}
	var opts []client.MergeFromOption
	if args.OptimisticLock {
		opts = append(opts, client.MergeFromWithOptimisticLock{})
	}
	data, err := client.MergeFromWithOptions(before, opts...).Data(after)
	if err != nil {
		return mergeFromAnswer{Error: err.Error()}, nil
	}
	text := string(data)
	return mergeFromAnswer{Patch: &text}, nil
}
