package localrun

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
)

// brokerAnswer is an error code a Kafka broker answered a request with:
// the broker was reached and refused, which is not the same trouble as a
// broker that never answered (an ACL to ask for, not a network to check).
type brokerAnswer struct {
	request string
	code    *kerr.Error
	err     error // as the client reported it, maybe with the broker's message
}

func (e *brokerAnswer) Error() string {
	detail := strings.TrimPrefix(e.err.Error(), e.code.Message+": ")
	return fmt.Sprintf("a broker answered %s with error %s (code %d): %s", e.request, e.code.Message, e.code.Code, detail)
}

func (e *brokerAnswer) Unwrap() error { return e.err }

// kafkaRequestErr words err, met on request: what the broker answered,
// or the request that found no answer.
func kafkaRequestErr(err error, request string) error {
	if answered, ok := kafkaAnswered(err, request); ok {
		return answered
	}
	return fmt.Errorf("%s: %w", request, err)
}

// kafkaAnswered says what err, met on request, was when a broker did
// answer: an error code (brokerAnswer), or a reply outside the protocol
// (a version it refused, a response that does not decode). ok is false
// for a broker that did not answer at all (a refused dial, a reset, a
// timeout), which the caller words as such.
func kafkaAnswered(err error, request string) (answered error, ok bool) {
	if ke, isCode := errors.AsType[*kerr.Error](err); isCode {
		return &brokerAnswer{request: request, code: ke, err: err}, true
	}
	if _, isNet := errors.AsType[net.Error](err); isNet {
		return nil, false
	}
	if _, hungUp := errors.AsType[*kgo.ErrFirstReadEOF](err); hungUp {
		return nil, false
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		return nil, false
	}
	// What is left is the client's judgement of an answer: a version the
	// broker refused, a response that did not decode.
	return fmt.Errorf("a broker answered %s in a way palink cannot use: %w", request, err), true
}
