package cocoon

import "encoding/json"

// AnnotationsMergePatch is k8s.AnnotationsMergePatch: the JSON merge patch that sets (or, for a
// nil value, deletes) the annotations.
func AnnotationsMergePatch(annotations map[string]any) ([]byte, error) {
	return json.Marshal(map[string]any{"metadata": map[string]any{"annotations": annotations}})
}
