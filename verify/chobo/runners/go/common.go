// What the Go runners of verify/chobo/runners/README.md share, on PostgreSQL (runner.go) and on
// TigerBeetle (tigerbeetle.go): a job's steps, calling a book value's typed methods through the
// generated table, the clock of a job's holds, and playing every job at once. Both builders copy
// this file next to their protocol's file and a generated main.go.

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"sync"
	"time"
)

// holdTimes are the times of holds in jobs.json, the same for every job.
type holdTimes struct {
	ExpiryMs int64 `json:"expiry_ms"`
	MarginMs int64 `json:"margin_ms"`
}

// newClock is a new job's clock of holds.
func (t holdTimes) newClock() *holdClock {
	return &holdClock{
		expiry:    time.Duration(t.ExpiryMs) * time.Millisecond,
		margin:    time.Duration(t.MarginMs) * time.Millisecond,
		stepStart: time.Now(),
	}
}

// jobName is what names a job in jobs.json: its id, its book, and its tenant.
type jobName struct {
	ID     string `json:"id"`
	Book   string `json:"book"`
	Tenant string `json:"tenant"`
}

// stepSpec is a step of a job in jobs.json: a call, a pass, or a together of callers.
type stepSpec struct {
	Call     string            `json:"call"`
	Op       string            `json:"op"`
	Strings  map[string]string `json:"strings"`
	Amounts  map[string]string `json:"amounts"`
	Pass     bool              `json:"pass"`
	Together [][]stepSpec      `json:"together"`
}

// step is one call's arguments: the book's parameter names, amounts read as int64.
type step struct {
	strings map[string]string
	amounts map[string]int64
}

func (s step) text(name string) string  { return s.strings[name] }
func (s step) amount(name string) int64 { return s.amounts[name] }

// partial is true for a post that names its amounts; a post without them posts in full.
func (s step) partial() bool { return len(s.amounts) > 0 }

func parseStep(s stepSpec) (step, error) {
	amounts := make(map[string]int64, len(s.Amounts))
	for name, text := range s.Amounts {
		v, err := strconv.ParseInt(text, 10, 64)
		if err != nil {
			return step{}, fmt.Errorf("amount %s: %w", name, err)
		}
		amounts[name] = v
	}
	return step{strings: s.Strings, amounts: amounts}, nil
}

// callFunc calls a book value's operations by "<transfer>.<op>".
type callFunc func(ctx context.Context, name string, s step) (outcome, reason string, err error)

// bookCalls are the operations of a generated package's book value: B its *Book, R its Result.
func bookCalls[B any, R any](
	b B,
	ops map[string]func(context.Context, B, step) (R, error),
	answer func(R) (outcome, reason string),
) callFunc {
	return func(ctx context.Context, name string, s step) (string, string, error) {
		op, ok := ops[name]
		if !ok {
			return "", "", fmt.Errorf("no operation %s", name)
		}
		r, err := op(ctx, b, s)
		if err != nil {
			return "", "", err
		}
		outcome, reason := answer(r)
		return outcome, reason, nil
	}
}

// holdClock is a job's clock of holds: when the last hold answered done, and whether a step came
// more than the expiry after the first of them since the last pass (late, README). A hold's expiry
// counts from inside its call, so lateness counts from the start of the step that made the first
// hold (check marks it), not from its answer. The callers of a together note their holds from
// goroutines of their own.
type holdClock struct {
	expiry    time.Duration
	margin    time.Duration
	mu        sync.Mutex
	last      time.Time
	since     time.Time
	stepStart time.Time
	late      bool
}

func (c *holdClock) answered(s stepSpec, answer string) {
	if s.Op != "hold" || answer != "done" {
		return
	}
	now := time.Now()
	c.mu.Lock()
	defer c.mu.Unlock()
	c.last = now
	if c.since.IsZero() {
		c.since = c.stepStart
	}
}

// check marks the job late when now is past the first hold's expiry since the last pass; a step
// starts.
func (c *holdClock) check() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.stepStart = time.Now()
	if !c.since.IsZero() && c.stepStart.Sub(c.since) > c.expiry {
		c.late = true
	}
}

// pass waits until every hold is the margin past its expiry; the pass itself follows.
func (c *holdClock) pass() {
	c.mu.Lock()
	last := c.last
	c.mu.Unlock()
	if !last.IsZero() {
		time.Sleep(time.Until(last.Add(c.expiry + c.margin)))
	}
	c.mu.Lock()
	c.since = time.Time{}
	c.mu.Unlock()
}

func (c *holdClock) isLate() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.late
}

// call plays one call step through a book value: its answer as the README writes it.
func call(ctx context.Context, on callFunc, clock *holdClock, s stepSpec) string {
	args, err := parseStep(s)
	if err != nil {
		return "failed:" + err.Error()
	}
	outcome, reason, err := on(ctx, s.Call+"."+s.Op, args)
	switch {
	case err != nil:
		return "failed:" + err.Error()
	case outcome == "refused":
		return "refused:" + reason
	}
	clock.answered(s, outcome)
	return outcome
}

// readJobs reads the jobs.json that args (the command line) names into jobs.
func readJobs(args []string, jobs any) error {
	if len(args) != 2 {
		return fmt.Errorf("usage: %s <jobs.json>", args[0])
	}
	text, err := os.ReadFile(args[1])
	if err != nil {
		return err
	}
	if err := json.Unmarshal(text, jobs); err != nil {
		return fmt.Errorf("%s: %w", args[1], err)
	}
	return nil
}

// playAll plays every job at once, each on a goroutine of its own, and prints {"results": […]}
// in the jobs' order; the first job that fails fails the run, and nothing is printed.
func playAll[J any, R any](jobs []J, play func(i int, job J) (R, error)) error {
	results := make([]R, len(jobs))
	errs := make([]error, len(jobs))
	var wg sync.WaitGroup
	for i, job := range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i], errs[i] = play(i, job)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	out := json.NewEncoder(os.Stdout)
	out.SetEscapeHTML(false)
	return out.Encode(map[string]any{"results": results})
}
