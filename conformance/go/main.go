// Command oracle answers conformance questions with the Go code the cocoonstack operator runs:
// k8s.io/apimachinery's resource.Quantity, strconv, encoding/json, controller-runtime's
// client.MergeFrom, k8s.io/api/admission/v1 decoding, go-containerregistry's name parsing and
// remote client (pushing to and probing a test registry), and the cocoon-common v0.3.0 code
// re-declared in package cocoon (./cocoon). This package only turns the protocol into those calls
// and their results back into answers.
//
// Protocol: one JSON request per line on stdin, {"id":N,"op":"...","args":{...}}; one JSON answer
// per line on stdout, in request order: {"id":N,"result":...}, or {"id":N,"fault":"..."} when the
// request itself is malformed (a fault is a bug in the caller, never a Go verdict). Output is
// flushed when no further input is buffered or every 10 ms, so a batch streams, a single request
// is answered at once, and a caller waiting on a slow request knows which one it is. One process
// serves a whole test run.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"time"
)

const flushEvery = 10 * time.Millisecond

type request struct {
	ID   int64           `json:"id"`
	Op   string          `json:"op"`
	Args json.RawMessage `json:"args"`
}

type response struct {
	ID     int64  `json:"id"`
	Result any    `json:"result,omitempty"`
	Fault  string `json:"fault,omitempty"`
}

// handlers maps each op to its answer; see the op files for the argument and result shapes.
var handlers = map[string]func(json.RawMessage) (any, error){
	"quantity.parse":     quantityParse,
	"quantity.unmarshal": quantityUnmarshal,
	"strconv":            strconvAll,
	"json.echo":          jsonEcho,
	"mergePatch":         mergePatch,
	"read":               readAll,
	"vmSpec":             vmSpecRoundTrip,
	"vmRuntime":          vmRuntimeRoundTrip,
	"lifecycle":          lifecycleRoundTrip,
	"agentSpec":          agentSpecOp,
	"toolboxSpec":        toolboxSpecOp,
	"mergeFrom":          mergeFrom,
	"admission":          admission,
	"goTypes":            goTypes,
	"podReaders":         podReaders,
	"reference":          reference,
	"registryClient":     registryClient,
}

// exitWithParent ends the oracle when the test process that started it goes away (it is then
// re-parented), so a case Go takes minutes over never outlives the run that sent it.
func exitWithParent() {
	parent := os.Getppid()
	for range time.Tick(time.Second) {
		if os.Getppid() != parent {
			os.Exit(3)
		}
	}
}

func main() {
	go exitWithParent()
	in := bufio.NewReaderSize(os.Stdin, 1<<20)
	out := bufio.NewWriterSize(os.Stdout, 1<<20)
	enc := json.NewEncoder(out)
	flushed := time.Now()
	for {
		line, err := in.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) > 0 {
			if encErr := enc.Encode(answer(line)); encErr != nil {
				fmt.Fprintln(os.Stderr, "oracle: encode answer:", encErr)
				os.Exit(2)
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "oracle: read request:", err)
			os.Exit(2)
		}
		if in.Buffered() == 0 || time.Since(flushed) > flushEvery {
			out.Flush()
			flushed = time.Now()
		}
	}
	out.Flush()
}

func answer(line []byte) response {
	var req request
	if err := json.Unmarshal(line, &req); err != nil {
		return response{ID: -1, Fault: "bad request line: " + err.Error()}
	}
	handle, ok := handlers[req.Op]
	if !ok {
		return response{ID: req.ID, Fault: "unknown op " + req.Op}
	}
	result, err := handle(req.Args)
	if err != nil {
		return response{ID: req.ID, Fault: req.Op + ": " + err.Error()}
	}
	return response{ID: req.ID, Result: result}
}

// decodeArgs decodes a request's arguments strictly: an unknown field is a caller bug.
func decodeArgs(raw json.RawMessage, into any) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	return dec.Decode(into)
}
