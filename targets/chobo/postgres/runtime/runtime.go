// The part of every chobo PostgreSQL client in Go that is the same for every book
// (docs/targets.md#postgresql-clients): calling one SQL function, retrying serialization failures
// and deadlocks, reading results. `chobo build --target postgres-go` copies this file as
// <package>/runtime.go after its generated header; the package clause below is the one line it
// changes.

package book

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// Querier runs one statement and returns its one row: *pgx.Conn, *pgxpool.Pool, *pgxpool.Conn
// and pgx.Tx all have it. The client never commits or rolls back.
type Querier interface {
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// Outcome is how a write ended.
type Outcome string

// The outcomes of a write.
const (
	Done       Outcome = "done"
	DoneBefore Outcome = "done_before"
	Refused    Outcome = "refused"
)

// Result is the answer of a write; Reason is a bound's reason or chobo's when it was Refused.
type Result struct {
	Outcome Outcome
	Reason  string
}

// Balance is an account's numbers in the unit's smallest unit.
type Balance struct {
	Posted  int64
	HeldIn  int64
	HeldOut int64
}

// HoldState is the state of a hold, or "" when there is no hold under the key.
type HoldState string

// The states of a hold.
const (
	Held    HoldState = "held"
	Posted  HoldState = "posted"
	Voided  HoldState = "voided"
	Expired HoldState = "expired"
)

// 30 tries; between them a random wait of up to 1 ms, doubling up to 128 ms, so the waits add up
// to 1.5 s on average and 2.9 s at most (docs/targets.md#postgresql-clients).
const (
	maxTries  = 30
	firstWait = time.Millisecond
	maxWait   = 128 * time.Millisecond
)

// SQLSTATEs: a serialization failure and a deadlock are retried; in a failed transaction of the
// caller, the error that failed it is returned.
const (
	serializationFailure = "40001"
	deadlockDetected     = "40P01"
	inFailedTransaction  = "25P02"
)

// maxStringBytes is the longest string argument, the tenant too, in bytes of UTF-8
// (docs/reference.md#limits).
const maxStringBytes = 256

// ArgumentError is the error of an argument chobo refuses before anything is sent
// (docs/reference.md#limits): a string that is not valid UTF-8, holds U+0000 or is longer than 256
// bytes, or a negative amount. errors.As tells it from the errors of the database.
type ArgumentError struct {
	// Message says which argument and why: "chobo: sku is 257 UTF-8 bytes, …".
	Message string
}

func (e *ArgumentError) Error() string { return e.Message }

func refuseArgument(format string, args ...any) error {
	return &ArgumentError{Message: "chobo: " + fmt.Sprintf(format, args...)}
}

// checkString refuses a string argument past the limits.
func checkString(name, s string) error {
	switch {
	case !utf8.ValidString(s):
		return refuseArgument("%s is not valid UTF-8", name)
	case strings.IndexByte(s, 0) >= 0:
		return refuseArgument("%s holds U+0000, which no string argument may", name)
	case len(s) > maxStringBytes:
		return refuseArgument("%s is %d UTF-8 bytes, longer than the %d a string argument may be", name, len(s), maxStringBytes)
	}
	return nil
}

// checkArguments refuses the tenant or an argument past the limits; names[i] is the parameter of args[i].
func checkArguments(tenant string, names []string, args []any) error {
	if err := checkString("tenant", tenant); err != nil {
		return err
	}
	for i, a := range args {
		switch v := a.(type) {
		case string:
			if err := checkString(names[i], v); err != nil {
				return err
			}
		case int64:
			if v < 0 {
				return refuseArgument("%s is an amount from 0 to 2^63 - 1, got %d", names[i], v)
			}
		}
	}
	return nil
}

// caller sends a book's statements for one tenant on one Querier.
type caller struct {
	q      Querier
	tenant string
}

func sqlState(err error) string {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		return pgErr.Code
	}
	return ""
}

// retry runs try until it succeeds, fails for good, or has run maxTries times. The arguments are
// the same every time, and the key makes a second run of a write that went through done_before.
func retry(ctx context.Context, try func() error) error {
	var first error
	wait := firstWait
	for tries := 1; ; tries++ {
		err := try()
		if err == nil {
			return nil
		}
		if first == nil {
			first = err
		}
		state := sqlState(err)
		if state == inFailedTransaction {
			return first
		}
		if (state != serializationFailure && state != deadlockDetected) || tries == maxTries {
			return err
		}
		timer := time.NewTimer(time.Duration(rand.Int64N(int64(wait) + 1)))
		select {
		case <-ctx.Done():
			timer.Stop()
			return errors.Join(err, ctx.Err())
		case <-timer.C:
		}
		wait = min(2*wait, maxWait)
	}
}

// write calls a transfer's function: select result, reason from "<book>"."<transfer>_<op>"($1, …).
func (c caller) write(ctx context.Context, sql string, names []string, args ...any) (Result, error) {
	if err := checkArguments(c.tenant, names, args); err != nil {
		return Result{}, err
	}
	var outcome string
	var reason *string
	err := retry(ctx, func() error {
		return c.q.QueryRow(ctx, sql, append([]any{c.tenant}, args...)...).Scan(&outcome, &reason)
	})
	if err != nil {
		return Result{}, err
	}
	switch o := Outcome(outcome); o {
	case Done, DoneBefore:
		return Result{Outcome: o}, nil
	case Refused:
		if reason == nil {
			return Result{}, errors.New("chobo: refused without a reason")
		}
		return Result{Outcome: o, Reason: *reason}, nil
	}
	return Result{}, fmt.Errorf("chobo: unknown result %q", outcome)
}

// status reads a hold's state: select "<book>"."<transfer>_status"($1, …) as state.
func (c caller) status(ctx context.Context, sql string, names []string, args ...any) (HoldState, error) {
	if err := checkArguments(c.tenant, names, args); err != nil {
		return "", err
	}
	var state *string
	err := retry(ctx, func() error {
		return c.q.QueryRow(ctx, sql, append([]any{c.tenant}, args...)...).Scan(&state)
	})
	if err != nil || state == nil {
		return "", err
	}
	switch s := HoldState(*state); s {
	case Held, Posted, Voided, Expired:
		return s, nil
	}
	return "", fmt.Errorf("chobo: unknown hold state %q", *state)
}

// balance reads an account: select posted::text, held_in::text, held_out::text from … .
func (c caller) balance(ctx context.Context, sql string, names []string, args ...any) (Balance, error) {
	if err := checkArguments(c.tenant, names, args); err != nil {
		return Balance{}, err
	}
	var text [3]string
	err := retry(ctx, func() error {
		return c.q.QueryRow(ctx, sql, append([]any{c.tenant}, args...)...).Scan(&text[0], &text[1], &text[2])
	})
	if err != nil {
		return Balance{}, err
	}
	var numbers [3]int64
	for i, t := range text {
		if numbers[i], err = strconv.ParseInt(t, 10, 64); err != nil {
			return Balance{}, fmt.Errorf("chobo: a balance of %q: %w", t, err)
		}
	}
	return Balance{Posted: numbers[0], HeldIn: numbers[1], HeldOut: numbers[2]}, nil
}

// expire gives back the holds past their expiry: select "<book>".expire() as n.
func (c caller) expire(ctx context.Context, sql string) (int, error) {
	var n int
	err := retry(ctx, func() error {
		return c.q.QueryRow(ctx, sql).Scan(&n)
	})
	return n, err
}
