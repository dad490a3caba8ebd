// The Go runner of verify/chobo/runners/README.md on PostgreSQL: plays every job of a jobs.json at once
// through the generated Go clients and prints what each step answered and what each job sent.
// buildGoRunner (runner.ts) copies this file and common.go next to a generated main.go that holds
// the table of the books.

package main

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"sync"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// jobsFile is jobs.json; its "clients" are not read, since the clients are compiled in.
type jobsFile struct {
	SocketDir string `json:"socket_dir"`
	Pool      int32  `json:"pool"`
	holdTimes
	Jobs []jobSpec `json:"jobs"`
}

type jobSpec struct {
	jobName
	Steps []stepSpec `json:"steps"`
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

// client is one book value: its operations by "<transfer>.<op>", and expire().
type client struct {
	call   callFunc
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

// jobState is what a job's callers share: the statements sent and the clock of its holds.
type jobState struct {
	mu    sync.Mutex
	sent  []sentStatement
	clock *holdClock
}

type runner struct {
	pool  *pgxpool.Pool
	books map[string]func(q *recorder, tenant string) client
	times holdTimes
	// One expire() at a time: expire() skips the holds another one has locked.
	expiring sync.Mutex
	// A together takes its connections at once, so two togethers never wait on each other's.
	acquiring sync.Mutex
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
				out[i] = append(out[i], call(ctx, c.call, j.clock, s))
			}
		}()
	}
	wg.Wait()
	return out
}

func (r *runner) pass(ctx context.Context, c client, j *jobState) {
	j.clock.pass()
	r.expiring.Lock()
	err := c.expire(ctx)
	r.expiring.Unlock()
	if err != nil {
		fmt.Fprintf(os.Stderr, "runner: expire(): %v\n", err)
	}
}

func (r *runner) play(ctx context.Context, spec jobSpec) jobResult {
	j := &jobState{clock: r.times.newClock()}
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
			j.clock.check()
			result.Steps = append(result.Steps, r.together(ctx, spec.Tenant, newClient, j, s.Together))
		default:
			j.clock.check()
			result.Steps = append(result.Steps, call(ctx, c.call, j.clock, s))
		}
	}
	// The end state is read inside the job's time: another job's expire() gives back every hold
	// past its expiry, whatever its tenant, so a late read counts as late like any step.
	result.Accounts = r.rows(ctx, `select id::text, posted::text, held_in::text, held_out::text from `+
		quote(spec.Book)+`.balances where tenant = $1 order by id`, spec.Tenant)
	result.Holds = r.rows(ctx, `select id::text, state from `+quote(spec.Book)+`.holds where tenant = $1 order by id`, spec.Tenant)
	j.clock.check()
	result.Late = j.clock.isLate()
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
	var jobs jobsFile
	if err := readJobs(args, &jobs); err != nil {
		return err
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
		pool:  pool,
		books: books,
		times: jobs.holdTimes,
	}
	return playAll(jobs.Jobs, func(_ int, spec jobSpec) (jobResult, error) {
		return r.play(ctx, spec), nil
	})
}

// bookClient is one book value of a generated package: B its *Book, R its Result.
func bookClient[B any, R any](
	b B,
	ops map[string]func(context.Context, B, step) (R, error),
	answer func(R) (outcome, reason string),
	expire func(B, context.Context) (int, error),
) client {
	return client{
		call: bookCalls(b, ops, answer),
		expire: func(ctx context.Context) error {
			_, err := expire(b, ctx)
			return err
		},
	}
}
