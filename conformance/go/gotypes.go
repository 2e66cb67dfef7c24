package main

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	admissionv1 "k8s.io/api/admission/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"cocoon-common-conformance-oracle/cocoon"
)

// goType describes a Go type as encoding/json sees it, in the shape of the TypeScript table
// (src/k8s/patch/cocoon-go-types.generated.ts): kind, element, and struct fields with their omitempty.
type goType struct {
	Kind   string    `json:"kind"`
	Elem   *goType   `json:"elem,omitempty"`
	Fields []goField `json:"fields,omitempty"`
}

type goField struct {
	Name      string `json:"name"`
	Type      goType `json:"type"`
	OmitEmpty bool   `json:"omitempty"`
}

var (
	rawType      = reflect.TypeFor[runtime.RawExtension]()
	quantityType = reflect.TypeFor[resource.Quantity]()
	timeType     = reflect.TypeFor[metav1.Time]()
	fieldsV1Type = reflect.TypeFor[metav1.FieldsV1]()
)

// goTypes: {"kind":"CocoonSet"|"CocoonHibernation"|"AdmissionReview"} → the description of that struct.
func goTypes(raw json.RawMessage) (any, error) {
	var args struct {
		Kind string `json:"kind"`
	}
	if err := decodeArgs(raw, &args); err != nil {
		return nil, err
	}
	switch args.Kind {
	case "CocoonSet":
		return describeType(reflect.TypeFor[cocoon.CocoonSet]())
	case "CocoonHibernation":
		return describeType(reflect.TypeFor[cocoon.CocoonHibernation]())
	case "AdmissionReview":
		return describeType(reflect.TypeFor[admissionv1.AdmissionReview]())
	}
	return nil, fmt.Errorf("unknown kind %q", args.Kind)
}

func describeType(t reflect.Type) (goType, error) {
	switch t {
	case quantityType:
		return goType{Kind: "quantity"}, nil
	case timeType:
		return goType{Kind: "time"}, nil
	case fieldsV1Type, rawType:
		return goType{Kind: "raw"}, nil
	}
	if t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Uint8 {
		return goType{Kind: "bytes"}, nil
	}
	switch t.Kind() {
	case reflect.String:
		return goType{Kind: "string"}, nil
	case reflect.Bool:
		return goType{Kind: "bool"}, nil
	case reflect.Int32:
		return goType{Kind: "int32"}, nil
	case reflect.Int64:
		return goType{Kind: "int64"}, nil
	case reflect.Pointer, reflect.Slice, reflect.Map:
		if t.Kind() == reflect.Map && t.Key().Kind() != reflect.String {
			return goType{}, fmt.Errorf("map key %s", t.Key())
		}
		elem, err := describeType(t.Elem())
		kind := map[reflect.Kind]string{reflect.Pointer: "ptr", reflect.Slice: "slice", reflect.Map: "map"}[t.Kind()]
		return goType{Kind: kind, Elem: &elem}, err
	case reflect.Struct:
		fields, err := describeFields(t)
		return goType{Kind: "struct", Fields: fields}, err
	}
	return goType{}, fmt.Errorf("unsupported type %s", t)
}

// describeFields lists a struct's JSON members in order, inlining embedded structs without a name.
func describeFields(t reflect.Type) ([]goField, error) {
	var fields []goField
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		name, opts, _ := strings.Cut(tag, ",")
		if name == "-" || !f.IsExported() {
			continue
		}
		if name == "" && f.Anonymous {
			inner, err := describeFields(f.Type)
			if err != nil {
				return nil, err
			}
			fields = append(fields, inner...)
			continue
		}
		if name == "" {
			name = f.Name
		}
		typ, err := describeType(f.Type)
		if err != nil {
			return nil, fmt.Errorf("%s.%s: %w", t.Name(), f.Name, err)
		}
		fields = append(fields, goField{Name: name, Type: typ, OmitEmpty: strings.Contains(","+opts+",", ",omitempty,")})
	}
	return fields, nil
}
