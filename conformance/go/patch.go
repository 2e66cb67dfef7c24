package main

import "encoding/json"

// AnnotationsMergePatch is k8s.AnnotationsMergePatch.
func AnnotationsMergePatch(annotations map[string]any) ([]byte, error) {
	return json.Marshal(map[string]any{"metadata": map[string]any{"annotations": annotations}})
}

// asDelta turns a pod's annotations into the map AnnotationsMergePatch takes.
func asDelta(annotations map[string]string) map[string]any {
	delta := make(map[string]any, len(annotations))
	for k, v := range annotations {
		delta[k] = v
	}
	return delta
}
