package main

import "strconv"

// LifecycleStatus is meta.LifecycleStatus (protocol JSON tags; the int64 travels as a string).
type LifecycleStatus struct {
	State              string `json:"state"`
	ObservedGeneration int64  `json:"observedGeneration,string"`
	Message            string `json:"message"`
}

func (s LifecycleStatus) Annotations() map[string]any {
	var message any
	if s.Message != "" {
		message = s.Message
	}
	return map[string]any{
		annotationLifecycleState:              s.State,
		annotationLifecycleObservedGeneration: strconv.FormatInt(s.ObservedGeneration, 10),
		annotationLifecycleStateMessage:       message,
	}
}

func (s LifecycleStatus) Snapshot() string {
	return s.State + "\x00" + strconv.FormatInt(s.ObservedGeneration, 10) + "\x00" + s.Message
}

func readInt64Annotation(p *pod, key string) int64 {
	raw := p.Annotations[key]
	if raw == "" {
		return 0
	}
	n, err := strconv.ParseInt(raw, 10, 64)
	if err != nil {
		return 0
	}
	return n
}

func ReadLifecycleStatus(p *pod) LifecycleStatus {
	return LifecycleStatus{
		State:              p.Annotations[annotationLifecycleState],
		ObservedGeneration: readInt64Annotation(p, annotationLifecycleObservedGeneration),
		Message:            p.Annotations[annotationLifecycleStateMessage],
	}
}
