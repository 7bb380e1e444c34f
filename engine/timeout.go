package engine

import (
	"context"
	"strings"
	"time"
)

// firstShare is ctx for the combined query: with a deadline, half the time left, so that the
// rules can still run alone in the other half when one of them is too slow.
func firstShare(ctx context.Context) (context.Context, context.CancelFunc) {
	deadline, ok := ctx.Deadline()
	if !ok {
		return context.WithCancel(ctx)
	}
	return context.WithTimeout(ctx, time.Until(deadline)/2)
}

// fairShare is ctx for one of n rules still to run alone: with a deadline, 1/n of the time
// left. A rule done early leaves its share to the next ones; a rule that runs out of it is
// stopped (OPA checks ctx between evaluation steps) while the others still run.
func fairShare(ctx context.Context, n int) (context.Context, context.CancelFunc) {
	deadline, ok := ctx.Deadline()
	if !ok || n <= 1 {
		return context.WithCancel(ctx)
	}
	return context.WithTimeout(ctx, time.Until(deadline)/time.Duration(n))
}

// failure is the skip reason of a rule whose evaluation returned err; timedOut says its
// context's deadline had passed, timeout is the engine's (zero: none).
func failure(err error, timedOut bool, timeout time.Duration) string {
	if !timedOut {
		// OPA's messages run over several lines; the reason is one.
		return "evaluation failed: " + strings.Join(strings.Fields(err.Error()), " ")
	}
	if timeout > 0 {
		return "evaluation timed out (the rules share --timeout " + timeout.String() + ")"
	}
	return "evaluation timed out"
}
