package main

import (
	"encoding/json"

	"k8s.io/apimachinery/pkg/api/resource"
	utiljson "k8s.io/apimachinery/pkg/util/json"
)

// quantityAnswer is what Go says about one quantity: its error, nil (JSON null), or the parsed value.
type quantityAnswer struct {
	Error  *string `json:"error,omitempty"`
	Nil    bool    `json:"nil,omitempty"`
	Format string  `json:"format,omitempty"`
	String string  `json:"string,omitempty"`
	IsZero bool    `json:"isZero,omitempty"`
}

func answerQuantity(q *resource.Quantity, err error) quantityAnswer {
	switch {
	case err != nil:
		text := err.Error()
		return quantityAnswer{Error: &text}
	case q == nil:
		return quantityAnswer{Nil: true}
	default:
		return quantityAnswer{Format: string(q.Format), String: q.String(), IsZero: q.IsZero()}
	}
}

// quantityParse: {"text": s} → resource.ParseQuantity(s), no trimming.
func quantityParse(raw json.RawMessage) (any, error) {
	var args struct {
		Text string `json:"text"`
	}
	if err := decodeArgs(raw, &args); err != nil {
		return nil, err
	}
	q, err := resource.ParseQuantity(args.Text)
	if err != nil {
		return answerQuantity(nil, err), nil
	}
	return answerQuantity(&q, nil), nil
}

// quantityUnmarshal: {"json": text, "wire": bool} → json.Unmarshal into a *resource.Quantity field
// (VMOptions.Storage), then meta.QuantityString. With wire, the text first takes the path a custom
// resource takes through the apiserver: decoded by k8s.io/apimachinery/pkg/util/json (integers
// become int64, other numbers float64, strings are unescaped) and re-encoded by encoding/json.
func quantityUnmarshal(raw json.RawMessage) (any, error) {
	var args struct {
		JSON string `json:"json"`
		Wire bool   `json:"wire"`
	}
	if err := decodeArgs(raw, &args); err != nil {
		return nil, err
	}
	text := []byte(args.JSON)
	if args.Wire {
		var value any
		if err := utiljson.Unmarshal(text, &value); err != nil {
			return nil, err
		}
		var err error
		if text, err = json.Marshal(value); err != nil {
			return nil, err
		}
	}
	var holder struct {
		Storage *resource.Quantity `json:"storage,omitempty"`
	}
	err := json.Unmarshal([]byte(`{"storage":`+string(text)+`}`), &holder)
	return answerQuantity(holder.Storage, err), nil
}
