package main

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/google/go-containerregistry/pkg/authn"
	"github.com/google/go-containerregistry/pkg/name"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/remote"
	"github.com/google/go-containerregistry/pkg/v1/remote/transport"
	"github.com/google/go-containerregistry/pkg/v1/static"
	"github.com/google/go-containerregistry/pkg/v1/types"
)

const registryClientTimeout = 15 * time.Second

// registryClientAnswer is what a go-containerregistry client saw: the digest it pushed, the
// descriptor remote.Head found for that tag, and the HTTP status of remote.Head on an absent tag.
// Each step that failed carries Go's error text instead.
type registryClientAnswer struct {
	Pushed       string         `json:"pushed,omitempty"`
	PushError    string         `json:"pushError,omitempty"`
	Head         *v1.Descriptor `json:"head,omitempty"`
	HeadError    string         `json:"headError,omitempty"`
	AbsentStatus int            `json:"absentStatus,omitempty"`
	AbsentError  string         `json:"absentError,omitempty"`
}

// registryClient: {"registry","repository","tag","absentTag","username","password"} → pushes a
// one-layer OCI image to registry/repository:tag with remote.Write and authn.Basic credentials (a
// token registry exchanges them at its realm), then probes the tag and absentTag with remote.Head,
// as an operator on go-containerregistry would.
func registryClient(raw json.RawMessage) (any, error) {
	var args struct {
		Registry   string `json:"registry"`
		Repository string `json:"repository"`
		Tag        string `json:"tag"`
		AbsentTag  string `json:"absentTag"`
		Username   string `json:"username"`
		Password   string `json:"password"`
	}
	if err := decodeArgs(raw, &args); err != nil {
		return nil, err
	}
	repo, err := name.NewRepository(args.Registry + "/" + args.Repository)
	if err != nil {
		return nil, err
	}
	img, err := smallImage()
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), registryClientTimeout)
	defer cancel()
	options := []remote.Option{remote.WithContext(ctx), remote.WithAuth(&authn.Basic{Username: args.Username, Password: args.Password})}

	var a registryClientAnswer
	digest, err := img.Digest()
	if err != nil {
		return nil, err
	}
	if err := remote.Write(repo.Tag(args.Tag), img, options...); err != nil {
		a.PushError = err.Error()
		return a, nil
	}
	a.Pushed = digest.String()
	if a.Head, err = remote.Head(repo.Tag(args.Tag), options...); err != nil {
		a.HeadError = err.Error()
	}
	_, err = remote.Head(repo.Tag(args.AbsentTag), options...)
	var terr *transport.Error
	if errors.As(err, &terr) {
		a.AbsentStatus = terr.StatusCode
	}
	if err != nil {
		a.AbsentError = err.Error()
	}
	return a, nil
}

// smallImage is the same OCI image on every run: an empty config and one layer holding "cocoon".
func smallImage() (v1.Image, error) {
	layer := static.NewLayer([]byte("cocoon"), types.OCILayer)
	img, err := mutate.AppendLayers(empty.Image, layer)
	if err != nil {
		return nil, err
	}
	img = mutate.MediaType(img, types.OCIManifestSchema1)
	return mutate.ConfigMediaType(img, types.OCIConfigJSON), nil
}
