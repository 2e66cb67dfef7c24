package main

import (
	"encoding/json"
	"strconv"
)

// strconvAnswer holds Go's verdict on one text for every strconv function the contract uses;
// null means the call returned an error. Integers travel as decimal strings.
type strconvAnswer struct {
	ParseInt64 *string `json:"parseInt64"`
	ParseInt32 *string `json:"parseInt32"`
	Atoi       *string `json:"atoi"`
	ParseBool  *bool   `json:"parseBool"`
	FormatInt  *string `json:"formatInt"`
}

// strconvAll: {"text": s} → ParseInt(s,10,64), ParseInt(s,10,32), Atoi(s), ParseBool(s), and
// FormatInt(n,10) of the int64 when it parsed.
func strconvAll(raw json.RawMessage) (any, error) {
	var args struct {
		Text string `json:"text"`
	}
	if err := decodeArgs(raw, &args); err != nil {
		return nil, err
	}
	var a strconvAnswer
	s := args.Text
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		a.ParseInt64 = ptr(strconv.FormatInt(n, 10))
		a.FormatInt = ptr(strconv.FormatInt(n, 10))
	}
	if n, err := strconv.ParseInt(s, 10, 32); err == nil {
		a.ParseInt32 = ptr(strconv.FormatInt(n, 10))
	}
	if n, err := strconv.Atoi(s); err == nil {
		a.Atoi = ptr(strconv.Itoa(n))
	}
	if b, err := strconv.ParseBool(s); err == nil {
		a.ParseBool = &b
	}
	return a, nil
}

func ptr[T any](v T) *T { return &v }
