package cocoon

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"

	admissionv1 "k8s.io/api/admission/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// The k8s/admission package (go-contract.md §4): Decode, Serve, Allow and Deny over
// k8s.io/api/admission/v1, prefixed with Admission in this flat package.

// AdmissionDefaultMaxBody is the body cap when Decode is given none.
const AdmissionDefaultMaxBody int64 = 10 << 20

// AdmissionHandlerFunc is admission.HandlerFunc.
type AdmissionHandlerFunc func(ctx context.Context, review *admissionv1.AdmissionReview) *admissionv1.AdmissionResponse

// AdmissionAllow is admission.Allow.
func AdmissionAllow() *admissionv1.AdmissionResponse {
	return &admissionv1.AdmissionResponse{Allowed: true}
}

// AdmissionDeny is admission.Deny: a Forbidden status carrying msg.
func AdmissionDeny(msg string) *admissionv1.AdmissionResponse {
	return &admissionv1.AdmissionResponse{Allowed: false, Result: &metav1.Status{Message: msg, Reason: metav1.StatusReasonForbidden}}
}

// AdmissionDecode is admission.Decode: the review from at most maxBytes of the body.
func AdmissionDecode(r *http.Request, maxBytes int64) (*admissionv1.AdmissionReview, error) {
	if maxBytes <= 0 {
		maxBytes = AdmissionDefaultMaxBody
	}
	review := &admissionv1.AdmissionReview{}
	if err := json.NewDecoder(io.LimitReader(r.Body, maxBytes)).Decode(review); err != nil {
		return nil, fmt.Errorf("decode admission review: %w", err)
	}
	return review, nil
}

// AdmissionServe is admission.Serve: decode, call the handler (nil means allow), echo the review
// with the response and the request's UID.
func AdmissionServe(w http.ResponseWriter, r *http.Request, maxBytes int64, handler AdmissionHandlerFunc) {
	review, err := AdmissionDecode(r, maxBytes)
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
		resp = AdmissionAllow()
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
