package main

// asDelta turns a pod's annotations into the map AnnotationsMergePatch takes.
func asDelta(annotations map[string]string) map[string]any {
	delta := make(map[string]any, len(annotations))
	for k, v := range annotations {
		delta[k] = v
	}
	return delta
}
