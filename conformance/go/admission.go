package main

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"

	admissionv1 "k8s.io/api/admission/v1"

	"cocoon-common-conformance-oracle/cocoon"
)

// admissionAnswer is what the API server would read back from the webhook.
type admissionAnswer struct {
	Status      int    `json:"status"`
	ContentType string `json:"contentType"`
	Body        string `json:"body"`
	Called      bool   `json:"called"`
}

// admission: {"body":"...","verdict":{"deny":"msg"}|{"allow":true}|{"response":{...}}} → Serve's
// answer to that request body, with a handler that returns the verdict.
func admission(raw json.RawMessage) (any, error) {
	var args struct {
		Body    string `json:"body"`
		Verdict struct {
			Allow    bool            `json:"allow"`
			Deny     *string         `json:"deny"`
			Response json.RawMessage `json:"response"`
		} `json:"verdict"`
	}
	if err := decodeArgs(raw, &args); err != nil {
		return nil, err
	}
	var verdict *admissionv1.AdmissionResponse
	switch {
	case args.Verdict.Deny != nil:
		verdict = cocoon.AdmissionDeny(*args.Verdict.Deny)
	case args.Verdict.Response != nil:
		verdict = &admissionv1.AdmissionResponse{}
		if err := json.Unmarshal(args.Verdict.Response, verdict); err != nil {
			return nil, errors.New("verdict.response: " + err.Error())
		}
	case args.Verdict.Allow:
		verdict = cocoon.AdmissionAllow()
	}
	answer := admissionAnswer{}
	handler := func(context.Context, *admissionv1.AdmissionReview) *admissionv1.AdmissionResponse {
		answer.Called = true
		return verdict
	}
	rec := httptest.NewRecorder()
	req := httptest.NewRequest(http.MethodPost, "/validate", strings.NewReader(args.Body))
	cocoon.AdmissionServe(rec, req, 0, handler)
	answer.Status = rec.Code
	answer.ContentType = rec.Header().Get("Content-Type")
	answer.Body = rec.Body.String()
	return answer, nil
}
