package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"

	admissionv1 "k8s.io/api/admission/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// The cocoon-common v0.3.0 k8s/admission package, re-declared from go-contract.md §4 (the
// module is not served by the proxy): Decode, Serve, Allow and Deny over k8s.io/api/admission/v1.

const defaultMaxBody int64 = 10 << 20

type admissionHandlerFunc func(ctx context.Context, review *admissionv1.AdmissionReview) *admissionv1.AdmissionResponse

func admissionAllow() *admissionv1.AdmissionResponse {
	return &admissionv1.AdmissionResponse{Allowed: true}
}

func admissionDeny(msg string) *admissionv1.AdmissionResponse {
	return &admissionv1.AdmissionResponse{Allowed: false, Result: &metav1.Status{Message: msg, Reason: metav1.StatusReasonForbidden}}
}

func admissionDecode(r *http.Request, maxBytes int64) (*admissionv1.AdmissionReview, error) {
	if maxBytes <= 0 {
		maxBytes = defaultMaxBody
	}
	review := &admissionv1.AdmissionReview{}
	if err := json.NewDecoder(io.LimitReader(r.Body, maxBytes)).Decode(review); err != nil {
		return nil, fmt.Errorf("decode admission review: %w", err)
	}
	return review, nil
}

func admissionServe(w http.ResponseWriter, r *http.Request, maxBytes int64, handler admissionHandlerFunc) {
	review, err := admissionDecode(r, maxBytes)
	if err != nil {
		http.Error(w, "decode admission review", http.StatusBadRequest)
		return
	}
	if review.Request == nil {
		http.Error(w, "admission review missing request", http.StatusBadRequest)
		return
	}
	resp := handler(r.Context(), review)
	if resp == nil {
		resp = admissionAllow()
	}
	resp.UID = review.Request.UID
	review.Response = resp
	out, err := json.Marshal(review)
	if err != nil {
		http.Error(w, "encode response", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(out)
}

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
		verdict = admissionDeny(*args.Verdict.Deny)
	case args.Verdict.Response != nil:
		verdict = &admissionv1.AdmissionResponse{}
		if err := json.Unmarshal(args.Verdict.Response, verdict); err != nil {
			return nil, errors.New("verdict.response: " + err.Error())
		}
	case args.Verdict.Allow:
		verdict = admissionAllow()
	}
	answer := admissionAnswer{}
	handler := func(context.Context, *admissionv1.AdmissionReview) *admissionv1.AdmissionResponse {
		answer.Called = true
		return verdict
	}
	rec := httptest.NewRecorder()
	req := httptest.NewRequest(http.MethodPost, "/validate", strings.NewReader(args.Body))
	admissionServe(rec, req, 0, handler)
	answer.Status = rec.Code
	answer.ContentType = rec.Header().Get("Content-Type")
	answer.Body = rec.Body.String()
	return answer, nil
}
