package dd

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/temporalproto"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/log"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"
)

// deadlockDetection is how long a workflow task may hold a worker's goroutine before the SDK calls it a
// deadlock (the SDK's 1 s is a busy 2-core machine's ordinary pause; no generated workflow blocks).
const deadlockDetection = 10 * time.Second

// queryAttempts is how many times a run's query is asked before the run is called late.
const queryAttempts = 3

// childStubActivity is the activity a child stub's workflow asks for its ending.
const childStubActivity = "dandori_child_stub"

// lines is stdout, which carries the runner's lines alone (stdoutAlone).
type lines struct {
	mu  sync.Mutex
	out *os.File
}

func (l *lines) print(v any) {
	text, err := json.Marshal(v)
	if err != nil {
		text, _ = json.Marshal(FlowError{Flow: fmt.Sprint(v), Error: err.Error()})
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	_, _ = l.out.Write(append(text, '\n'))
}

// play is one flow in this process: its client, its workers, its runs' states and results.
type play struct {
	job       FlowJobs
	flow      Flow
	stubs     *Stubs
	workers   []worker.Worker
	polling   client.Client
	mu        sync.Mutex
	results   []Result
	histories []History
	left      int
}

// childStubWorkflow is every child type: its ending is the stub activity's answer, a declared error
// as the same error.
func childStubWorkflow(ctx workflow.Context, args converter.EncodedValues) (any, error) {
	var input any
	if args.HasValues() {
		if err := args.Get(&input); err != nil {
			return nil, err
		}
	}
	info := workflow.GetInfo(ctx)
	options := workflow.ActivityOptions{StartToCloseTimeout: 60 * time.Second, HeartbeatTimeout: 10 * time.Second, RetryPolicy: &temporal.RetryPolicy{MaximumAttempts: 1}}
	call := ChildCall{Child: info.WorkflowType.Name, ID: info.WorkflowExecution.ID, Queue: info.TaskQueueName, Input: input}
	var out any
	err := workflow.ExecuteActivity(workflow.WithActivityOptions(ctx, options), childStubActivity, call).Get(ctx, &out)
	var failed *temporal.ActivityError
	if errors.As(err, &failed) {
		var app *temporal.ApplicationError
		if errors.As(failed.Unwrap(), &app) {
			return nil, temporal.NewNonRetryableApplicationError(app.Message(), app.Type(), nil)
		}
	}
	return out, err
}

// start makes the flow's workers in its namespace and starts them.
func (p *play) start(c client.Client, limits Limits) error {
	options := worker.Options{MaxHeartbeatThrottleInterval: time.Duration(limits.HeartbeatMs) * time.Millisecond, DeadlockDetectionTimeout: deadlockDetection}
	// A worker of the workflow alone polls no activity task, one of the activities alone no workflow task.
	flowOptions := options
	flowOptions.LocalActivityWorkerOnly = p.job.Part == "workflow"
	flowOptions.DisableWorkflowWorker = p.job.Part == "activities"
	w := worker.New(c, p.flow.TaskQueue(), flowOptions)
	if p.job.Part == "activities" {
		p.flow.Register(activitiesOnly{w}, p.stubs)
	} else {
		p.flow.Register(w, p.stubs)
	}
	p.workers = append(p.workers, w)
	children := p.job.Children
	if p.job.Part == "workflow" {
		children = nil
	}
	for _, q := range children {
		cw := worker.New(c, q.Queue, options)
		cw.RegisterDynamicWorkflow(childStubWorkflow, workflow.DynamicRegisterOptions{})
		cw.RegisterActivityWithOptions(p.stubs.ChildStub, activity.RegisterOptions{Name: childStubActivity})
		p.workers = append(p.workers, cw)
	}
	for _, w := range p.workers {
		if err := w.Start(); err != nil {
			return err
		}
	}
	return nil
}

// activitiesOnly is a worker whose workflow worker is disabled: registering a workflow is nothing
// (the SDK would panic), so the flow's Register registers its activities alone.
type activitiesOnly struct{ worker.Worker }

func (activitiesOnly) RegisterWorkflow(any) {}

func (activitiesOnly) RegisterWorkflowWithOptions(any, workflow.RegisterOptions) {}

func (activitiesOnly) RegisterDynamicWorkflow(any, workflow.DynamicRegisterOptions) {}

// endingOf is a run's ending as endingJson writes it, or {error}/{failed} for what no flow ends with.
func endingOf(out json.RawMessage, err error) any {
	if err == nil {
		if out == nil {
			return map[string]any{"succeed": nil}
		}
		return map[string]any{"succeed": out}
	}
	var failed *temporal.WorkflowExecutionError
	if !errors.As(err, &failed) {
		return map[string]any{"error": err.Error()}
	}
	cause := failed.Unwrap()
	if _, ok := cause.(*temporal.CanceledError); ok {
		return map[string]any{"cancelled": true}
	}
	if app, ok := cause.(*temporal.ApplicationError); ok {
		var reason any
		if app.HasDetails() {
			_ = app.Details(&reason)
		}
		if reason == nil && app.Message() != "" {
			reason = app.Message()
		}
		return map[string]any{"fail": map[string]any{"error": app.Type(), "reason": reason}}
	}
	return map[string]any{"failed": fmt.Sprint(cause)}
}

// countTimeouts is how many activities and children the histories say timed out.
func countTimeouts(histories []History) int {
	n := 0
	for _, h := range histories {
		for _, e := range h.History.GetEvents() {
			t := e.GetEventType()
			if t == enumspb.EVENT_TYPE_ACTIVITY_TASK_TIMED_OUT || t == enumspb.EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_TIMED_OUT {
				n++
			}
		}
	}
	return n
}

// failedRun is a run the runner could not play to its end: its ending says why.
func failedRun(s *runState, id string, err error) Result {
	s.mu.Lock()
	defer s.mu.Unlock()
	return Result{ID: id, Calls: s.calls, Ending: map[string]any{"error": err.Error()}, LateWhy: s.lateWhy, Late: s.late, Problems: s.problems}
}

// playRun plays one run to its ending; what it did.
func (p *play) playRun(run RunJob, limits Limits) Result {
	c := p.stubs.client
	s := p.stubs.states[run.ID]
	ctx := context.Background()
	started := time.Now()
	handle, err := p.flow.Start(ctx, c, run.Input, run.ID)
	if err != nil {
		return failedRun(s, run.ID, err)
	}
	// The handle's run id follows the execution through each Continue-As-New: its first is read now.
	firstRunID := handle.GetRunID()
	done := make(chan struct{})
	watching := sync.WaitGroup{}
	if p.job.Events {
		watching.Add(1)
		go func() {
			defer watching.Done()
			p.stubs.events(run.ID, done)
		}()
	}
	limited, cancel := context.WithTimeout(ctx, time.Duration(limits.RunMs)*time.Millisecond)
	defer cancel()
	var out json.RawMessage
	err = handle.Get(limited, &out)
	close(done)
	ms := float64(time.Since(started).Microseconds()) / 1000
	watching.Wait()
	if limited.Err() != nil {
		_ = c.TerminateWorkflow(ctx, run.ID, "", "the run took longer than its limit")
		r := failedRun(s, run.ID, fmt.Errorf("did not end within %d s", limits.RunMs/1000))
		r.Late = true
		r.LateWhy = append(r.LateWhy, "it took longer than its limit")
		r.Ms = ms
		return r
	}
	ending := endingOf(out, err)
	query := p.query(run.ID, s)
	searchAttribute := []string{}
	described, err := c.DescribeWorkflowExecution(ctx, run.ID, "")
	if err != nil {
		return failedRun(s, run.ID, err)
	}
	if field, ok := described.GetWorkflowExecutionInfo().GetSearchAttributes().GetIndexedFields()["DandoriCases"]; ok {
		if err := converter.GetDefaultDataConverter().FromPayload(field, &searchAttribute); err != nil {
			return failedRun(s, run.ID, err)
		}
	}
	histories, err := p.flow.Histories(ctx, c, run.ID, firstRunID)
	if err != nil {
		return failedRun(s, run.ID, err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	whole := p.job.Part != "workflow"
	given := s.timeoutsGiven
	if !whole {
		// The stubs are another runner's: the timeouts the scenario gives are the most the server may make.
		given = 0
		for _, a := range run.Answers {
			if a.isTimeout() {
				given++
			}
		}
	}
	if timedOut := countTimeouts(histories); timedOut > given {
		s.late = true
		s.lateWhy = append(s.lateWhy, fmt.Sprintf("%d timeouts where the scenario gave %d", timedOut, given))
	}
	// A run that ended before it was given all its answers was late (a shortened timer of the copy
	// fired first on a busy machine) or wrong; it runs again, and a second time is a failure. The
	// runner of its activities says so when the stubs are there.
	if whole && s.next != len(s.answers) {
		s.late = true
		s.lateWhy = append(s.lateWhy, fmt.Sprintf("it ended with %d answers not given", len(s.answers)-s.next))
	}
	events := 0
	for _, h := range histories {
		events = max(events, len(h.History.GetEvents()))
	}
	p.mu.Lock()
	p.histories = append(p.histories, histories...)
	p.mu.Unlock()
	return Result{ID: run.ID, Calls: s.calls, Ending: ending, Query: query, SearchAttribute: searchAttribute, Late: s.late, LateWhy: s.lateWhy, Problems: s.problems, Runs: len(histories), Ms: ms, Events: events}
}

// query is the cases `dandori.status` answers after the run ended. A worker answers it by replaying
// the run, which on a busy machine may take longer than the SDK waits for a query (10 s): it is
// asked again, up to queryAttempts times, and a run whose query never answered is late.
func (p *play) query(id string, s *runState) any {
	var err error
	for range queryAttempts {
		var status Status
		if status, err = p.flow.Status(context.Background(), p.stubs.client, id); err == nil {
			return status.Cases
		}
	}
	s.lateFor(fmt.Sprintf("its query did not answer in %d attempts: %v", queryAttempts, err))
	return map[string]any{"error": err.Error()}
}

// historyJSON is one history as the CLI writes it, with its workflow id.
type historyJSON struct {
	WorkflowID string          `json:"workflowId"`
	RunID      string          `json:"runId"`
	History    json.RawMessage `json:"history"`
}

// finish stops the flow's workers, replays every history on the generated Replay, writes them when
// asked: the flow's line.
func (p *play) finish() (FlowLine, error) {
	if p.job.Part == "activities" {
		return p.activitiesLine(), nil
	}
	for _, w := range p.workers {
		w.Stop()
	}
	p.polling.Close()
	var replay *string
	if err := p.flow.Replay(p.histories); err != nil {
		why := err.Error()
		replay = &why
	}
	if p.job.HistoriesFile != nil {
		out := []historyJSON{}
		for _, h := range p.histories {
			text, err := temporalproto.CustomJSONMarshalOptions{}.Marshal(h.History)
			if err != nil {
				return FlowLine{}, err
			}
			out = append(out, historyJSON{WorkflowID: h.WorkflowID, RunID: h.RunID, History: text})
		}
		text, err := json.Marshal(out)
		if err != nil {
			return FlowLine{}, err
		}
		if err := os.WriteFile(*p.job.HistoriesFile, text, 0o644); err != nil {
			return FlowLine{}, err
		}
	}
	return FlowLine{Flow: p.job.Flow, Results: p.results, Replay: replay, Histories: len(p.histories)}, nil
}

// activitiesLine stops the workers of a flow played by its activities alone, once every run has
// ended: each run's calls, whether it was late, its problems.
func (p *play) activitiesLine() FlowLine {
	results := []Result{}
	for id, s := range p.stubs.states {
		s.end()
		s.mu.Lock()
		if s.next != len(s.answers) {
			s.late = true
			s.lateWhy = append(s.lateWhy, fmt.Sprintf("it ended with %d answers not given", len(s.answers)-s.next))
		}
		results = append(results, Result{ID: id, Calls: s.calls, LateWhy: s.lateWhy, Late: s.late, Problems: s.problems})
		s.mu.Unlock()
	}
	for _, w := range p.workers {
		w.Stop()
	}
	p.polling.Close()
	return FlowLine{Flow: p.job.Flow, Results: results, Histories: 0}
}

// Main plays the jobs file named by the first argument on the flows of this binary (by the base
// name of their package's directory) and prints each flow's line as it finishes; with the first
// argument replay, it replays recorded histories instead (replayFiles).
func Main(flows map[string]NewFlow) {
	play := run
	if len(os.Args) > 1 && os.Args[1] == "replay" {
		play = replayFiles
	}
	out, err := stdoutAlone()
	if err == nil {
		err = play(flows, out)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "temporal-go runner:", err)
		os.Exit(1)
	}
}

// stdoutAlone is stdout for the runner's lines alone: fd 1 is pointed at stderr for whatever else
// prints (the SDK's replayer logs to stdout).
func stdoutAlone() (*lines, error) {
	stdout, err := syscall.Dup(1)
	if err != nil {
		return nil, err
	}
	if err := syscall.Dup3(2, 1, 0); err != nil {
		return nil, err
	}
	return &lines{out: os.NewFile(uintptr(stdout), "stdout")}, nil
}

func run(flows map[string]NewFlow, out *lines) error {
	text, err := os.ReadFile(os.Args[1])
	if err != nil {
		return err
	}
	var jobs Jobs
	if err := decodeExact(text, &jobs); err != nil {
		return err
	}
	logger := log.NewStructuredLogger(slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError})))
	base, err := client.Dial(client.Options{HostPort: jobs.Address, Logger: logger})
	if err != nil {
		return err
	}
	defer base.Close()
	plays := make([]*play, len(jobs.Flows))
	up := make([]bool, len(jobs.Flows))
	for i, job := range jobs.Flows {
		p := &play{job: job}
		plays[i] = p
		newFlow, ok := flows[filepath.Base(job.Dir)]
		if !ok {
			out.print(FlowError{Flow: job.Flow, Error: "the runner holds no package for " + job.Dir})
			continue
		}
		flow, err := newFlow(job.CodecKey)
		if err != nil {
			out.print(FlowError{Flow: job.Flow, Error: err.Error()})
			continue
		}
		options := client.Options{HostPort: jobs.Address, Namespace: job.Namespace, Logger: logger}
		c, err := flow.Client(base, options)
		if err != nil {
			out.print(FlowError{Flow: job.Flow, Error: err.Error()})
			continue
		}
		// The flow's workers long-poll on a connection of their own: on the clients' one, the polls
		// of every flow would take the streams a connection has, and a start or a query would wait.
		polling, err := flow.Client(nil, options)
		if err != nil {
			out.print(FlowError{Flow: job.Flow, Error: err.Error()})
			continue
		}
		p.polling = polling
		p.flow = flow
		p.stubs = &Stubs{client: c, flow: flow, tasks: job.Tasks, states: map[string]*runState{}, limits: jobs.Limits, watch: job.Part == "activities", watched: map[string]bool{}}
		for _, r := range jobs.Runs {
			if r.Flow == i {
				p.stubs.states[r.ID] = newRunState(r)
				p.left++
			}
		}
		if err := p.start(polling, jobs.Limits); err != nil {
			out.print(FlowError{Flow: job.Flow, Error: err.Error()})
			continue
		}
		up[i] = true
	}
	finish := func(p *play) {
		line, err := p.finish()
		if err != nil {
			out.print(FlowError{Flow: p.job.Flow, Error: err.Error()})
			return
		}
		out.print(line)
	}
	finishing := sync.WaitGroup{}
	for i, p := range plays {
		if up[i] && p.left == 0 {
			finishing.Go(func() { finish(p) })
		}
	}
	queue := make(chan RunJob, len(jobs.Runs))
	served := false
	for _, r := range jobs.Runs {
		if !up[r.Flow] {
			continue
		}
		if plays[r.Flow].job.Part == "activities" {
			served = true
		} else {
			queue <- r
		}
	}
	close(queue)
	lanes := sync.WaitGroup{}
	for range max(1, jobs.Limits.AtOnce) {
		lanes.Go(func() {
			for r := range queue {
				p := plays[r.Flow]
				result := p.playRun(r, jobs.Limits)
				p.stubs.states[r.ID].end()
				p.mu.Lock()
				p.results = append(p.results, result)
				p.left--
				last := p.left == 0
				p.mu.Unlock()
				if last {
					finishing.Go(func() { finish(p) })
				}
			}
		})
	}
	lanes.Wait()
	if served {
		// What is written does not matter: the end of stdin says every run has ended.
		if _, err := io.Copy(io.Discard, os.Stdin); err != nil {
			return err
		}
		for i, p := range plays {
			if up[i] && p.job.Part == "activities" && p.left > 0 {
				finishing.Go(func() { finish(p) })
			}
		}
	}
	finishing.Wait()
	return nil
}

// recorded is a file of recorded histories (verify/dandori/temporal_go_histories.ts).
type recorded struct {
	Histories []struct {
		WorkflowID string          `json:"workflowId"`
		RunID      string          `json:"runId"`
		History    json.RawMessage `json:"history"`
	} `json:"histories"`
}

// replayed is what replayFiles prints for a file: how many histories it holds, and null when they
// all replay on the flow's code, else the first error.
type replayed struct {
	File      string  `json:"file"`
	Histories int     `json:"histories"`
	Replay    *string `json:"replay"`
}

// replayFiles replays the recorded files the arguments after replay name, each as <dir>=<file>
// (the flow by its package's directory, in clear: no key of a past run is kept), printing a line for each.
func replayFiles(flows map[string]NewFlow, out *lines) error {
	for _, arg := range os.Args[2:] {
		dir, file, ok := strings.Cut(arg, "=")
		newFlow, known := flows[dir]
		if !ok || !known {
			return fmt.Errorf("%s: not <dir>=<file> of a flow this runner holds", arg)
		}
		flow, err := newFlow(nil)
		if err != nil {
			return fmt.Errorf("%s: %w", arg, err)
		}
		text, err := os.ReadFile(file)
		if err != nil {
			return err
		}
		var r recorded
		if err := json.Unmarshal(text, &r); err != nil {
			return fmt.Errorf("%s: %w", file, err)
		}
		histories := []History{}
		for _, h := range r.Histories {
			history, err := client.HistoryFromJSON(bytes.NewReader(h.History), client.HistoryJSONOptions{})
			if err != nil {
				return fmt.Errorf("%s: %w", file, err)
			}
			histories = append(histories, History{WorkflowID: h.WorkflowID, RunID: h.RunID, History: history})
		}
		line := replayed{File: file, Histories: len(histories)}
		if err := flow.Replay(histories); err != nil {
			why := err.Error()
			line.Replay = &why
		}
		out.print(line)
	}
	return nil
}
