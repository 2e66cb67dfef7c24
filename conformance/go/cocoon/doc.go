// Package cocoon re-declares the cocoon-common v0.3.0 code the TypeScript twin is checked and
// timed against, from go-contract.md (the Go module itself is not served by the proxy): the meta
// helpers on real corev1.Pod values, k8s.AnnotationsMergePatch, k8s/admission, and the apis/v1
// types. Files are named after Go's and each body follows Go's code path, so the conformance
// oracle (package main one level up) and the benchmarks beside this file run what cocoon-operator
// runs. The JSON tags are the TypeScript field names, which both callers exchange; Go's meta
// types have none, and tags change nothing on the Go code path.
package cocoon
