package main

import (
	"encoding/json"

	"github.com/google/go-containerregistry/pkg/name"
	v1 "github.com/google/go-containerregistry/pkg/v1"
)

// referenceAnswer is go-containerregistry's verdict on one reference string, as Go cocoon-common's
// oci package parses every manifest and blob reference: the resolved parts, or the errors.
type referenceAnswer struct {
	Kind           string  `json:"kind,omitempty"`
	String         string  `json:"string,omitempty"`
	Name           string  `json:"name,omitempty"`
	Context        string  `json:"context,omitempty"`
	Registry       string  `json:"registry,omitempty"`
	Repository     string  `json:"repository,omitempty"`
	Identifier     string  `json:"identifier,omitempty"`
	Scheme         string  `json:"scheme,omitempty"`
	Error          *string `json:"error,omitempty"`
	NewTagError    *string `json:"newTagError,omitempty"`
	NewDigestError *string `json:"newDigestError,omitempty"`
	NewHashError   *string `json:"newHashError"`
}

// reference: {"text": s} → name.ParseReference(s) (default options), the specific NewTag and
// NewDigest errors when it fails, and v1.NewHash(s)'s error (PutBlob's digest check) or null.
func reference(raw json.RawMessage) (any, error) {
	var args struct {
		Text string `json:"text"`
	}
	if err := decodeArgs(raw, &args); err != nil {
		return nil, err
	}
	var a referenceAnswer
	if _, err := v1.NewHash(args.Text); err != nil {
		a.NewHashError = ptr(err.Error())
	}
	ref, err := name.ParseReference(args.Text)
	if err != nil {
		a.Error = ptr(err.Error())
		if _, tagErr := name.NewTag(args.Text); tagErr != nil {
			a.NewTagError = ptr(tagErr.Error())
		}
		if _, digestErr := name.NewDigest(args.Text); digestErr != nil {
			a.NewDigestError = ptr(digestErr.Error())
		}
		return a, nil
	}
	a.Kind = "tag"
	if _, ok := ref.(name.Digest); ok {
		a.Kind = "digest"
	}
	repo := ref.Context()
	a.String, a.Name, a.Context = ref.String(), ref.Name(), repo.Name()
	a.Registry, a.Repository, a.Identifier, a.Scheme = repo.RegistryStr(), repo.RepositoryStr(), ref.Identifier(), repo.Scheme()
	return a, nil
}
