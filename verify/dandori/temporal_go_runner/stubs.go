package dd

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"
)

// runState is one run's state: its answers, what it sent, what went wrong.
type runState struct {
	mu                sync.Mutex
	answers           []Answer
	next              int
	calls             []*SentCall
	problems          []Problem
	timeoutsGiven     int
	late              bool
	lateWhy           []string
	unknownTried      bool
	unknownEventTried bool
	// ended is closed when the run has ended (end): what a stub the scenario times out waits for.
	ended   chan struct{}
	endOnce sync.Once
}

// end says the run has ended; again is nothing.
func (s *runState) end() {
	s.endOnce.Do(func() { close(s.ended) })
}

func newRunState(run RunJob) *runState {
	return &runState{answers: run.Answers, calls: []*SentCall{}, problems: []Problem{}, lateWhy: []string{}, ended: make(chan struct{})}
}

// take is the scenario's next answer.
func (s *runState) take() (Answer, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.next >= len(s.answers) {
		return nil, errors.New("the scenario has no answer left for this call")
	}
	a := s.answers[s.next]
	s.next++
	return a, nil
}

func (s *runState) record(c *SentCall) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls = append(s.calls, c)
}

func (s *runState) problem(p Problem) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.problems = append(s.problems, p)
}

func (s *runState) lateFor(why string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.late = true
	s.lateWhy = append(s.lateWhy, why)
}

// current is the call an activity runs for: its recorded call, its answer, its callback's id, and
// whether its heartbeats stop (a timeout the scenario gives).
type current struct {
	call       *SentCall
	answer     Answer
	callbackID string
	silent     atomic.Bool
}

type currentKey struct{}

// Stubs are one flow's stubs: Transport, the user's tasks, the recording of calls, the child stub.
type Stubs struct {
	client client.Client
	flow   Flow
	tasks  map[string]TaskInfo
	states map[string]*runState
	limits Limits
	// watch is set when this runner plays the flow's activities alone: it starts none of its runs, so
	// it watches a run's end (watched) once one of its activities is called.
	watch   bool
	watchMu sync.Mutex
	watched map[string]bool
}

// state is the run a workflow id belongs to (a child's id starts with its parent's).
func (st *Stubs) state(workflowID string) (*runState, error) {
	id := strings.Split(workflowID, "/")[0]
	s, ok := st.states[id]
	if !ok {
		return nil, errors.New("no run for " + workflowID)
	}
	if st.watch {
		st.watchMu.Lock()
		first := !st.watched[id]
		st.watched[id] = true
		st.watchMu.Unlock()
		if first {
			// An activity of the run is running, so the run exists: its end (continuations followed) ends a block.
			go func() {
				_ = st.client.GetWorkflow(context.Background(), id, "").Get(context.Background(), nil)
				s.end()
			}()
		}
	}
	return s, nil
}

// Record records an activity as the workflow called it (the temporal view) and takes its answer;
// the context it returns carries the call to the stub the activity reaches.
func (st *Stubs) Record(ctx context.Context, name string, args map[string]any, key, callbackID string) (context.Context, error) {
	s, err := st.state(activity.GetInfo(ctx).WorkflowExecution.ID)
	if err != nil {
		return ctx, err
	}
	a, err := s.take()
	if err != nil {
		return ctx, err
	}
	view := map[string]any{"activity": name, "args": args}
	if key != "" {
		view["key"] = key
	}
	if callbackID != "" {
		view["callback_id"] = callbackID
	}
	c := &SentCall{Temporal: view}
	s.record(c)
	return context.WithValue(ctx, currentKey{}, &current{call: c, answer: a, callbackID: callbackID}), nil
}

// Beats is whether the code copy's activity heartbeats: not once its stub blocks for a timeout.
func Beats(ctx context.Context) bool {
	cur, ok := ctx.Value(currentKey{}).(*current)
	return !ok || !cur.silent.Load()
}

// currentOf is the call the activity of ctx runs for, and its run.
func (st *Stubs) currentOf(ctx context.Context) (*current, *runState, error) {
	cur, ok := ctx.Value(currentKey{}).(*current)
	if !ok {
		return nil, nil, errors.New("a stub was called outside a recorded activity")
	}
	s, err := st.state(activity.GetInfo(ctx).WorkflowExecution.ID)
	return cur, s, err
}

// failure is a failure that is no declared error, with the scenario's cause as its message.
func failure(message string) error {
	return temporal.NewNonRetryableApplicationError(message, "Error", nil)
}

// block blocks a timed-out activity without heartbeats until its run has ended, so the server times
// it out (whenever a busy server gets to it) and nothing the stub does afterwards reaches the run.
func block(cur *current, s *runState) error {
	s.mu.Lock()
	s.timeoutsGiven++
	s.mu.Unlock()
	cur.silent.Store(true)
	<-s.ended
	return errors.New("the stub blocked until its run ended")
}

// cancelHere asks the server to cancel the run, then waits until this activity is cancelled.
func (st *Stubs) cancelHere(ctx context.Context, workflowID string) error {
	if err := st.client.CancelWorkflow(context.Background(), strings.Split(workflowID, "/")[0], ""); err != nil {
		return err
	}
	<-ctx.Done()
	return ctx.Err()
}

func replyOf(a Answer) Reply {
	if name, cause, isError := a.errorOf(); isError {
		return Reply{Error: name, Message: cause}
	}
	return Reply{OK: a["ok"]}
}

// answerCallback answers a callback through the generated Answer: a repeat and (once a run) an
// unknown id must be refused.
func (st *Stubs) answerCallback(s *runState, id string, a Answer) {
	ctx := context.Background()
	var callback struct {
		Workflow string `json:"workflow"`
	}
	if err := json.Unmarshal([]byte(id), &callback); err != nil {
		s.lateFor("the callback id " + id + " is not JSON: " + err.Error())
		return
	}
	reply := replyOf(a)
	s.mu.Lock()
	tryUnknown := !s.unknownTried
	s.unknownTried = true
	s.mu.Unlock()
	if tryUnknown {
		unknown, _ := json.Marshal(struct {
			Workflow string `json:"workflow"`
			Call     string `json:"call"`
		}{callback.Workflow, "s0/0"})
		if _, err := st.flow.Answer(ctx, st.client, callback.Workflow, string(unknown), reply); err == nil {
			s.problem(Problem{Kind: "unknown callback taken", Callback: string(unknown)})
		}
	}
	if _, err := st.flow.Answer(ctx, st.client, callback.Workflow, id, reply); err != nil {
		// The wait ended before the answer came (its hand-on activity timed out under load): late, not wrong.
		s.lateFor("the answer to " + id + " was refused: " + err.Error())
		return
	}
	if _, err := st.flow.Answer(ctx, st.client, callback.Workflow, id, reply); err == nil {
		s.problem(Problem{Kind: "second answer taken", Callback: id})
	}
}

// before is what a stub does with the current answer before it answers: block, cancel, or hand a
// callback on (handled: the stub answers as a hand-on does); otherwise the answer to give.
func (st *Stubs) before(ctx context.Context) (a Answer, handled bool, err error) {
	cur, s, err := st.currentOf(ctx)
	if err != nil {
		return nil, false, err
	}
	a = cur.answer
	if a.isCancel() {
		return nil, false, st.cancelHere(ctx, activity.GetInfo(ctx).WorkflowExecution.ID)
	}
	if cur.callbackID != "" {
		if !a.isTimeout() {
			st.answerCallback(s, cur.callbackID, a)
		}
		return nil, true, nil
	}
	if a.isTimeout() {
		return nil, false, block(cur, s)
	}
	return a, false, nil
}

// wire is what the wire carries for a declared error of the activity's task (ok false: none).
func (st *Stubs) wire(ctx context.Context, name string) (string, bool) {
	w, ok := st.tasks[activity.GetInfo(ctx).ActivityType.Name].Wires[name]
	return w, ok
}

// transport records what reached Transport on the current call.
func transport(ctx context.Context, view any) {
	if cur, ok := ctx.Value(currentKey{}).(*current); ok {
		cur.call.Transport = view
	}
}

// HTTP is the stub Transport's HTTP: records the request and answers with a status and a body.
func (st *Stubs) HTTP(ctx context.Context, method, url string, headers map[string]string, body *string) (int, string, error) {
	request := map[string]any{"method": method, "url": url, "headers": headers}
	if body != nil {
		var parsed any = *body
		if headers["Content-Type"] == "application/json" {
			if err := decodeExact([]byte(*body), &parsed); err != nil {
				return 0, "", err
			}
		}
		request["body"] = parsed
	}
	transport(ctx, map[string]any{"http": request})
	a, handled, err := st.before(ctx)
	if err != nil || handled {
		return 200, "", err
	}
	name, cause, isError := a.errorOf()
	if !isError {
		if a["ok"] == nil {
			return 200, "", nil
		}
		text, err := json.Marshal(a["ok"])
		return 200, string(text), err
	}
	wire, ok := st.wire(ctx, name)
	if !ok {
		return 500, cause, nil
	}
	status, err := strconv.Atoi(wire)
	return status, cause, err
}

// Lambda is the stub Transport's Lambda: records the invocation and answers with a payload or an error type.
func (st *Stubs) Lambda(ctx context.Context, function string, payload any) (result any, errorType, message string, err error) {
	transport(ctx, map[string]any{"lambda": function, "payload": payload})
	a, handled, err := st.before(ctx)
	if err != nil || handled {
		return nil, "", "", err
	}
	name, cause, isError := a.errorOf()
	if !isError {
		return a["ok"], "", "", nil
	}
	wire, ok := st.wire(ctx, name)
	if !ok {
		wire = "Error"
	}
	return nil, wire, cause, nil
}

// AWS is the stub Transport's AWS: records the operation and answers its output, or an exception's name.
func (st *Stubs) AWS(ctx context.Context, service, operation string, args map[string]any) (out any, exception, message string, err error) {
	transport(ctx, map[string]any{"aws": service + ":" + operation, "args": args})
	a, handled, err := st.before(ctx)
	if err != nil {
		return nil, "", "", err
	}
	if handled {
		return map[string]any{}, "", "", nil
	}
	name, cause, isError := a.errorOf()
	if !isError {
		return a["ok"], "", "", nil
	}
	wire, ok := st.wire(ctx, name)
	if !ok {
		wire = "InternalFailure"
	}
	return nil, wire, cause, nil
}

// Book is the stub Transport's Book: records the call (its JSON) and answers done, done before or refused.
func (st *Stubs) Book(ctx context.Context, call any) (result, reason string, err error) {
	transport(ctx, call)
	a, handled, err := st.before(ctx)
	if err != nil {
		return "", "", err
	}
	if handled {
		return "done", "", nil
	}
	name, cause, isError := a.errorOf()
	if !isError {
		ok, _ := a["ok"].(map[string]any)
		result, _ = ok["result"].(string)
		reason, _ = ok["reason"].(string)
		return result, reason, nil
	}
	if name == "failure" {
		return "", "", failure(cause)
	}
	return "refused", name, nil
}

// Agent is the stub Transport's Agent: records the request and answers {"answer": …}, or the cause
// of the refusal the scenario's failure is (`refused`; the adapter makes it the flow's AgentStopped).
func (st *Stubs) Agent(ctx context.Context, url string, headers map[string]string, body map[string]any) (answer any, refused string, err error) {
	transport(ctx, map[string]any{"agent": map[string]any{"url": url, "headers": headers, "body": body}})
	a, handled, err := st.before(ctx)
	if err != nil {
		return nil, "", err
	}
	if handled {
		return nil, "", failure("an agent's call has no callback")
	}
	_, cause, isError := a.errorOf()
	if !isError {
		return map[string]any{"answer": a["ok"]}, "", nil
	}
	return nil, "refused: " + cause, nil
}

// Own is every user's task: it answers from the scenario.
func (st *Stubs) Own(ctx context.Context) (any, error) {
	a, handled, err := st.before(ctx)
	if err != nil || handled {
		return nil, err
	}
	name, cause, isError := a.errorOf()
	if !isError {
		return a["ok"], nil
	}
	if name == "failure" {
		return nil, failure(cause)
	}
	return nil, temporal.NewNonRetryableApplicationError(cause, name, nil)
}

// ChildCall is what a child stub's workflow passes its activity.
type ChildCall struct {
	Child string `json:"child"`
	ID    string `json:"id"`
	Queue string `json:"queue"`
	Input any    `json:"input"`
}

// ChildStub is the child stub's activity: records the child as started, and answers from the scenario.
func (st *Stubs) ChildStub(ctx context.Context, c ChildCall) (any, error) {
	s, err := st.state(c.ID)
	if err != nil {
		return nil, err
	}
	a, err := s.take()
	if err != nil {
		return nil, err
	}
	s.record(&SentCall{Temporal: map[string]any{"child": c.Child, "id": c.ID, "queue": c.Queue, "input": c.Input}})
	done := make(chan struct{})
	defer close(done)
	go func() {
		tick := time.NewTicker(time.Duration(st.limits.HeartbeatMs) * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				activity.RecordHeartbeat(ctx)
			}
		}
	}()
	if a.isCancel() {
		return nil, st.cancelHere(ctx, c.ID)
	}
	name, cause, isError := a.errorOf()
	if !isError {
		return a["ok"], nil
	}
	if name == "timeout" {
		s.mu.Lock()
		s.timeoutsGiven++
		s.mu.Unlock()
		<-ctx.Done()
		return nil, ctx.Err()
	}
	if name == "failure" {
		return nil, failure(cause)
	}
	return nil, temporal.NewNonRetryableApplicationError(cause, name, nil)
}

// events sends each event the run waits for, as Status says, with the scenario's next answer,
// until done is closed.
func (st *Stubs) events(id string, done <-chan struct{}) {
	s, err := st.state(id)
	if err != nil {
		return
	}
	ctx := context.Background()
	handled := ""
	for {
		select {
		case <-done:
			return
		case <-time.After(time.Duration(st.limits.EventPollMs) * time.Millisecond):
		}
		status, err := st.flow.Status(ctx, st.client, id)
		if err != nil {
			continue
		}
		if handled != "" {
			if !contains(status.Events, handled) {
				handled = ""
			}
			continue
		}
		if len(status.Events) == 0 {
			continue
		}
		name := status.Events[0]
		a, err := s.take()
		if err != nil {
			s.lateFor(err.Error())
			continue
		}
		s.record(&SentCall{Temporal: map[string]any{"event": name}, Transport: map[string]any{"event": name}})
		handled = name
		if a.isCancel() {
			_ = st.client.CancelWorkflow(ctx, id, "")
			continue
		}
		if a.isTimeout() {
			continue
		}
		reply := replyOf(a)
		s.mu.Lock()
		tryUnknown := !s.unknownEventTried
		s.unknownEventTried = true
		s.mu.Unlock()
		if tryUnknown {
			if _, err := st.flow.Send(ctx, st.client, id, "dandori.not-awaited", reply); err == nil {
				s.problem(Problem{Kind: "event not awaited taken"})
			}
		}
		if _, err := st.flow.Send(ctx, st.client, id, name, reply); err != nil {
			s.lateFor("the event " + name + " was refused: " + err.Error())
		}
	}
}

func contains(list []string, x string) bool {
	for _, v := range list {
		if v == x {
			return true
		}
	}
	return false
}
