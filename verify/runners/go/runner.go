// The Go runner of verify/runners/README.md: plays every job of a jobs.json at once through the
// generated Go clients and prints what each step answered and what each job sent. buildGoRunner
// (runner.ts) copies this file next to a generated main.go that holds the table of the books.

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// jobsFile is jobs.json; its "clients" are not read, since the clients are compiled in.
type jobsFile struct {
	SocketDir string    `json:"socket_dir"`
	Pool      int32     `json:"pool"`
	ExpiryMs  int64     `json:"expiry_ms"`
	MarginMs  int64     `json:"margin_ms"`
	Jobs      []jobSpec `json:"jobs"`
}

type jobSpec struct {
	ID     string     `json:"id"`
	Book   string     `json:"book"`
	Tenant string     `json:"tenant"`
	Steps  []stepSpec `json:"steps"`
}

type stepSpec struct {
	Call     string            `json:"call"`
	Op       string            `json:"op"`
	Strings  map[string]string `json:"strings"`
	Amounts  map[string]string `json:"amounts"`
	Pass     bool              `json:"pass"`
	Together [][]stepSpec      `json:"together"`
}

type sentStatement struct {
	Text   string    `json:"text"`
	Values []*string `json:"values"`
}

type jobResult struct {
	ID       string          `json:"id"`
	Steps    []any           `json:"steps"`
	Late     bool            `json:"late"`
	Sent     []sentStatement `json:"sent"`
	Accounts [][]string      `json:"accounts"`
	Holds    [][]string      `json:"holds"`
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

// client is one book value: its operations by "<transfer>.<op>", and expire().
type client struct {
	call   func(ctx context.Context, name string, s step) (outcome, reason string, err error)
	expire func(ctx context.Context) error
}

// querier is what the generated clients take; a recorder wraps one.
type querier interface {
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// recorder passes statements on and writes each one into its job's log, as sent.
type recorder struct {
	q   querier
	job *jobState
}

func (r *recorder) QueryRow(ctx context.Context, sql string, args ...any) pgx.Row {
	values := make([]*string, len(args))
	for i, a := range args {
		var v string
		switch x := a.(type) {
		case nil:
			continue
		case string:
			v = x
		case int64:
			v = strconv.FormatInt(x, 10)
		default:
			v = fmt.Sprint(x)
		}
		values[i] = &v
	}
	r.job.mu.Lock()
	r.job.sent = append(r.job.sent, sentStatement{Text: sql, Values: values})
	r.job.mu.Unlock()
	return r.q.QueryRow(ctx, sql, args...)
}

// jobState is what a job's callers share: the statements sent and the holds made since the last pass.
type jobState struct {
	mu         sync.Mutex
	sent       []sentStatement
	lastHold   time.Time
	holdsSince time.Time
	late       bool
}

func (j *jobState) held(at time.Time) {
	j.mu.Lock()
	defer j.mu.Unlock()
	if at.After(j.lastHold) {
		j.lastHold = at
	}
	if j.holdsSince.IsZero() {
		j.holdsSince = at
	}
}

func (j *jobState) checkLate(expiry time.Duration) {
	j.mu.Lock()
	defer j.mu.Unlock()
	if !j.holdsSince.IsZero() && time.Since(j.holdsSince) > expiry {
		j.late = true
	}
}

type runner struct {
	pool   *pgxpool.Pool
	books  map[string]func(q *recorder, tenant string) client
	expiry time.Duration
	margin time.Duration
	// One expire() at a time: expire() skips the holds another one has locked.
	expiring sync.Mutex
	// A together takes its connections at once, so two togethers never wait on each other's.
	acquiring sync.Mutex
}

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

func (r *runner) call(ctx context.Context, c client, j *jobState, s stepSpec) string {
	args, err := parseStep(s)
	if err != nil {
		return "failed:" + err.Error()
	}
	outcome, reason, err := c.call(ctx, s.Call+"."+s.Op, args)
	switch {
	case err != nil:
		return "failed:" + err.Error()
	case outcome == "refused":
		return "refused:" + reason
	}
	if s.Op == "hold" && outcome == "done" {
		j.held(time.Now())
	}
	return outcome
}

func (r *runner) together(ctx context.Context, tenant string, newClient func(*recorder, string) client, j *jobState, callers [][]stepSpec) [][]string {
	out := make([][]string, len(callers))
	for i, calls := range callers {
		out[i] = make([]string, 0, len(calls))
	}
	conns := make([]*pgxpool.Conn, 0, len(callers))
	var err error
	if size := r.pool.Config().MaxConns; int64(len(callers)) > int64(size) {
		err = fmt.Errorf("%d callers need more connections than the pool's %d", len(callers), size)
	}
	r.acquiring.Lock()
	for range callers {
		if err != nil {
			break
		}
		var conn *pgxpool.Conn
		if conn, err = r.pool.Acquire(ctx); err == nil {
			conns = append(conns, conn)
		}
	}
	r.acquiring.Unlock()
	defer func() {
		for _, conn := range conns {
			conn.Release()
		}
	}()
	if err != nil {
		for i, calls := range callers {
			for range calls {
				out[i] = append(out[i], "failed:"+err.Error())
			}
		}
		return out
	}
	var wg sync.WaitGroup
	for i, calls := range callers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := newClient(&recorder{q: conns[i], job: j}, tenant)
			for _, s := range calls {
				out[i] = append(out[i], r.call(ctx, c, j, s))
			}
		}()
	}
	wg.Wait()
	return out
}

func (r *runner) pass(ctx context.Context, c client, j *jobState) {
	j.mu.Lock()
	last := j.lastHold
	j.mu.Unlock()
	if !last.IsZero() {
		time.Sleep(time.Until(last.Add(r.expiry + r.margin)))
	}
	r.expiring.Lock()
	err := c.expire(ctx)
	r.expiring.Unlock()
	if err != nil {
		fmt.Fprintf(os.Stderr, "runner: expire(): %v\n", err)
	}
	j.mu.Lock()
	j.holdsSince = time.Time{}
	j.mu.Unlock()
}

func (r *runner) play(ctx context.Context, spec jobSpec) jobResult {
	j := &jobState{}
	result := jobResult{ID: spec.ID, Steps: make([]any, 0, len(spec.Steps))}
	newClient, ok := r.books[spec.Book]
	if !ok {
		for range spec.Steps {
			result.Steps = append(result.Steps, "failed:no Go client for the book "+spec.Book)
		}
		result.Sent = []sentStatement{}
		return result
	}
	c := newClient(&recorder{q: r.pool, job: j}, spec.Tenant)
	for _, s := range spec.Steps {
		switch {
		case s.Pass:
			r.pass(ctx, c, j)
			result.Steps = append(result.Steps, nil)
		case s.Together != nil:
			j.checkLate(r.expiry)
			result.Steps = append(result.Steps, r.together(ctx, spec.Tenant, newClient, j, s.Together))
		default:
			j.checkLate(r.expiry)
			result.Steps = append(result.Steps, r.call(ctx, c, j, s))
		}
	}
	// The end state is read inside the job's time: another job's expire() gives back every hold
	// past its expiry, whatever its tenant, so a late read counts as late like any step.
	result.Accounts = r.rows(ctx, `select id::text, posted::text, held_in::text, held_out::text from `+
		quote(spec.Book)+`.accounts where tenant = $1 order by id`, spec.Tenant)
	result.Holds = r.rows(ctx, `select id::text, state from `+quote(spec.Book)+`.holds where tenant = $1 order by id`, spec.Tenant)
	j.checkLate(r.expiry)
	result.Late = j.late
	result.Sent = j.sent
	if result.Sent == nil {
		result.Sent = []sentStatement{}
	}
	return result
}

// quote is a PostgreSQL identifier in double quotes.
func quote(name string) string {
	out := `"`
	for _, ch := range name {
		if ch == '"' {
			out += `""`
		} else {
			out += string(ch)
		}
	}
	return out + `"`
}

// rows reads text columns of every row; an error leaves the rows read so far, reported on stderr.
func (r *runner) rows(ctx context.Context, sql string, tenant string) [][]string {
	out := [][]string{}
	rows, err := r.pool.Query(ctx, sql, tenant)
	if err != nil {
		fmt.Fprintf(os.Stderr, "runner: %v\n", err)
		return out
	}
	defer rows.Close()
	for rows.Next() {
		values, err := rows.Values()
		if err != nil {
			fmt.Fprintf(os.Stderr, "runner: %v\n", err)
			return out
		}
		row := make([]string, len(values))
		for i, v := range values {
			row[i] = fmt.Sprint(v)
		}
		out = append(out, row)
	}
	return out
}

func run(args []string, books map[string]func(q *recorder, tenant string) client) error {
	if len(args) != 2 {
		return fmt.Errorf("usage: %s <jobs.json>", args[0])
	}
	text, err := os.ReadFile(args[1])
	if err != nil {
		return err
	}
	var jobs jobsFile
	if err := json.Unmarshal(text, &jobs); err != nil {
		return fmt.Errorf("%s: %w", args[1], err)
	}
	config, err := pgxpool.ParseConfig("")
	if err != nil {
		return err
	}
	config.ConnConfig.Host = jobs.SocketDir
	config.ConnConfig.Port = 5432
	config.ConnConfig.User = "postgres"
	config.ConnConfig.Database = "postgres"
	config.MaxConns = jobs.Pool
	ctx := context.Background()
	pool, err := pgxpool.NewWithConfig(ctx, config)
	if err != nil {
		return err
	}
	defer pool.Close()
	r := &runner{
		pool:   pool,
		books:  books,
		expiry: time.Duration(jobs.ExpiryMs) * time.Millisecond,
		margin: time.Duration(jobs.MarginMs) * time.Millisecond,
	}
	results := make([]jobResult, len(jobs.Jobs))
	var wg sync.WaitGroup
	for i, spec := range jobs.Jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i] = r.play(ctx, spec)
		}()
	}
	wg.Wait()
	out := json.NewEncoder(os.Stdout)
	out.SetEscapeHTML(false)
	return out.Encode(map[string]any{"results": results})
}

// bookClient is one book value of a generated package: B its *Book, R its Result.
func bookClient[B any, R any](
	b B,
	ops map[string]func(context.Context, B, step) (R, error),
	answer func(R) (outcome, reason string),
	expire func(B, context.Context) (int, error),
) client {
	return client{
		call: func(ctx context.Context, name string, s step) (string, string, error) {
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
		},
		expire: func(ctx context.Context) error {
			_, err := expire(b, ctx)
			return err
		},
	}
}
