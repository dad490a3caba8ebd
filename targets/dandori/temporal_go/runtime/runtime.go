// The part of every dandori Temporal Go package that is the same for every flow
// (docs/targets.md#temporal-go): the rules every platform shares (held to tests/vectors/ as the
// TypeScript and Python runtimes are), the attempts of a call (ddAttempt), parallel iterations
// (ddRounds), one run's state (ddRun: where it waits, its cases, the callbacks and events it
// waits for), the clock, the errors that end a run, and the durations a test copy shortens, each
// one declaration. `dandori build --target temporal-go` copies it byte for byte but for its
// package clause. It reads no clock, timer or random number but the workflow's own.

package dandori

import (
	"errors"
	"math"
	"regexp"
	"strings"
	"time"

	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"
)

// ---------------------------------------------------------------------------------------------
// What a test copy shortens: every duration of the workflow goes through these.

// ddTimer is a durable timer of seconds (waits, retry delays, callback waits).
func ddTimer(seconds float64) time.Duration {
	return time.Duration(seconds * float64(time.Second))
}

// ddEventWait is an event's wait of seconds (an event is sent from outside, so a copy keeps it longer).
func ddEventWait(seconds float64) time.Duration {
	return time.Duration(seconds * float64(time.Second))
}

// ddActivityTimeout is the StartToCloseTimeout of an activity whose one attempt may take seconds.
func ddActivityTimeout(seconds float64) time.Duration {
	return time.Duration(seconds * float64(time.Second))
}

// ddChildTimeout is the WorkflowExecutionTimeout of a child that may take seconds (0: as long as it runs).
func ddChildTimeout(seconds float64) time.Duration {
	return time.Duration(seconds * float64(time.Second))
}

// ddWidth is how many iterations of a parallel loop run at once, of the k the flow allows.
func ddWidth(k int) int {
	return k
}

// ddContinueAt is the history length at the start of an outermost iteration that continues it as a new run.
const ddContinueAt = 10_000

// ddHeartbeatTimeout: Temporal times a task run by this worker out when no heartbeat came for this long.
const ddHeartbeatTimeout = 30 * time.Second

// ddStartNow is the time as the workflow's clock says it, to the second: a run's start.
func ddStartNow(ctx workflow.Context) string {
	return ddTimestampText(workflow.Now(ctx).UnixMilli())
}

// ddNow is the time as the workflow's clock says it, to the second: read once before a statement that reads `now`.
func ddNow(ctx workflow.Context) string {
	return ddTimestampText(workflow.Now(ctx).UnixMilli())
}

// ---------------------------------------------------------------------------------------------
// Limits with their reasons.

// ddHandOn: the activity that hands a callback's id on takes at most this long (the plan's handOnSeconds).
const ddHandOn = 60 * time.Second

// ddAnswerWaitSeconds: an event or a callback without `timeout` waits at most one day (docs/dandori.md).
const ddAnswerWaitSeconds = 86_400

// ---------------------------------------------------------------------------------------------
// The rules every host language shares (tests/vectors/).

// ddRetrier is one retrier in Step Functions' order; "*" among its errors takes every error.
type ddRetrier struct {
	Errors          []string
	MaxAttempts     int
	IntervalSeconds float64
	Backoff         float64
}

// ddRetrierFor is the index of the retrier that takes the error: the first whose errors name it, or "*"; -1 when none does.
func ddRetrierFor(retriers []ddRetrier, name string) int {
	for i, r := range retriers {
		for _, e := range r.Errors {
			if e == name || e == "*" {
				return i
			}
		}
	}
	return -1
}

// ddRetryDelayMs is how long the retry-th retry (1 for the first) waits, in whole milliseconds rounded down.
func ddRetryDelayMs(r ddRetrier, retry int) int64 {
	return int64(math.Floor(r.IntervalSeconds * 1000 * math.Pow(r.Backoff, float64(retry-1))))
}

// ddSecondsUntil is how many seconds a wait until deadlineMs lasts from nowMs: rounded up, never less than 1.
func ddSecondsUntil(deadlineMs, nowMs int64) int64 {
	left := deadlineMs - nowMs
	seconds := left / 1000
	if left%1000 > 0 {
		seconds++
	}
	return max(seconds, 1)
}

// ddIdempotencyKey is a call's key: <execution>/<place>/<loop counts…>.
func ddIdempotencyKey(execution, place string, loops []int) string {
	return strings.Join(append([]string{execution, place}, ddCounts(loops)...), "/")
}

// ddSegment is a value written into a URL: a string as it is, none as empty, anything else as its
// JSON; then every byte but letters, digits and -_.!~*'() as %XX, as encodeURIComponent escapes.
func ddSegment(v any) string {
	text, ok := v.(string)
	if !ok {
		text = ""
		if v != nil {
			text = ddJSON(v)
		}
	}
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(text); i++ {
		c := text[i]
		if c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || strings.IndexByte("-_.!~*'()", c) >= 0 {
			b.WriteByte(c)
		} else {
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
		}
	}
	return b.String()
}

// ddDotSegment is a path segment . or .. in a URL a call built, its values escaped (%2e in either
// case is a dot), between the / that ends the host and the ? of the query, as the WHATWG URL parser
// reads one: lang/dandori/rules.ts's DOT_SEGMENT, the same expression.
var ddDotSegment = regexp.MustCompile(`(?i)^[a-z]+://[^/?]*/(?:[^?]*/)?(?:\.|%2e)(?:\.|%2e)?(?:[/?]|$)`)

// ddHasDotSegment is true when a path segment of url is . or ..: the call is not sent, and the run
// fails with Dandori.BadInput (docs/dandori.md#urls).
func ddHasDotSegment(url string) bool {
	return ddDotSegment.MatchString(url)
}

// ddTimeIn is true when a time is in [first, after), compared on its first 19 characters (an empty end: open).
func ddTimeIn(value, first, after string) bool {
	s := ddPrefix(value, 19)
	return (first == "" || s >= first) && (after == "" || s < after)
}

// ddDateIn is true when a date is in [first, last], compared as text (an empty end: open).
func ddDateIn(value, first, last string) bool {
	return (first == "" || value >= first) && (last == "" || value <= last)
}

// ddShaped is true when text is shape ('9' a digit, anything else itself) followed by rest.
func ddShaped(text, shape string) (string, bool) {
	if len(text) < len(shape) {
		return "", false
	}
	for i := 0; i < len(shape); i++ {
		c := text[i]
		if shape[i] == '9' && (c < '0' || c > '9') || shape[i] != '9' && c != shape[i] {
			return "", false
		}
	}
	return text[len(shape):], true
}

// ddTimestampShaped is true when text is YYYY-MM-DDTHH:MM:SS, a fraction or none, and Z.
func ddTimestampShaped(text string) bool {
	rest, ok := ddShaped(text, "9999-99-99T99:99:99")
	if !ok {
		return false
	}
	if strings.HasPrefix(rest, ".") {
		digits := strings.TrimLeft(rest[1:], "0123456789")
		if len(digits) == len(rest)-1 {
			return false
		}
		rest = digits
	}
	return rest == "Z"
}

// ddTimestampMs is the milliseconds since 1970 of a timestamp, and false when the text is none.
func ddTimestampMs(text string) (int64, bool) {
	if !ddTimestampShaped(text) {
		return 0, false
	}
	t, err := time.Parse(time.RFC3339Nano, text)
	if err != nil {
		return 0, false
	}
	return t.UnixMilli(), true
}

// ddTimestampText is a time as a flow writes a timestamp: to the second, in UTC.
func ddTimestampText(ms int64) string {
	return time.UnixMilli(ms).UTC().Truncate(time.Second).Format("2006-01-02T15:04:05Z")
}

// ddDate is true when the text is a date of the calendar.
func ddDate(text string) bool {
	if rest, ok := ddShaped(text, "9999-99-99"); !ok || rest != "" {
		return false
	}
	_, err := time.Parse("2006-01-02", text)
	return err == nil
}

// ---------------------------------------------------------------------------------------------
// How a run ends.

// ddTaskError is a task's error after its retries, on its way to a handler or `on failure`: Kind
// is what handlers match (a declared name, timeout, failure); Failure and Reason are the
// workflow's failure when nothing handles it.
type ddTaskError struct {
	Kind    string
	Failure string
	Reason  any
}

func (e *ddTaskError) Error() string {
	return e.Kind
}

// ddSucceeded is `succeed`: the run ends with its outputs.
type ddSucceeded struct {
	Outputs any
}

func (e *ddSucceeded) Error() string {
	return "succeed"
}

// ddFail is the workflow's failure with a dandori error name and a reason (a string, or nil).
func ddFail(name string, reason any) error {
	message, _ := reason.(string)
	var detail any = ddNone()
	if reason != nil {
		detail = reason
	}
	return temporal.NewNonRetryableApplicationError(message, name, nil, detail)
}

// ddTakes is true when err is a task's error that one of the names takes.
func ddTakes(err error, names ...string) bool {
	var t *ddTaskError
	if !errors.As(err, &t) {
		return false
	}
	for _, n := range names {
		if n == t.Kind {
			return true
		}
	}
	return false
}

// ddEnd is what a run returns after its blocks: its outputs (empty when it ended without
// `succeed`), or its failure.
func ddEnd(err error, empty any) (any, error) {
	var s *ddSucceeded
	var t *ddTaskError
	switch {
	case err == nil:
		return empty, nil
	case errors.As(err, &s):
		return s.Outputs, nil
	case errors.As(err, &t):
		return nil, ddFail(t.Failure, t.Reason)
	default:
		return nil, err
	}
}

// ddIsTaskError is true when err is a task's error, which `on failure` runs for.
func ddIsTaskError(err error) bool {
	var t *ddTaskError
	return errors.As(err, &t)
}

// ddAnswered is an error answered to a callback or an event.
type ddAnswered struct {
	Name    string
	Message string
}

func (e *ddAnswered) Error() string {
	return e.Message
}

// ddWaitTimedOut is a wait for an answer that timed out.
type ddWaitTimedOut struct{}

func (e *ddWaitTimedOut) Error() string {
	return "the wait timed out"
}

// ddErrorOf is what an attempt ended with: the error's name for handlers and retriers, and its message.
func ddErrorOf(err error, declared []string) (string, string) {
	cause := err
	switch e := err.(type) {
	case *temporal.ActivityError:
		cause = e.Unwrap()
	case *temporal.ChildWorkflowExecutionError:
		cause = e.Unwrap()
	}
	var timeout *temporal.TimeoutError
	var waited *ddWaitTimedOut
	if errors.As(err, &waited) || ddIsTimeout(cause, &timeout) || ddIsTimeout(err, &timeout) {
		return "timeout", ""
	}
	name := ""
	message := ""
	switch c := cause.(type) {
	case *temporal.ApplicationError:
		name, message = c.Type(), c.Message()
	case *ddAnswered:
		name, message = c.Name, c.Message
	case nil:
	default:
		message = c.Error()
	}
	for _, d := range declared {
		if d == name {
			return name, message
		}
	}
	return "failure", message
}

func ddIsTimeout(err error, into **temporal.TimeoutError) bool {
	t, ok := err.(*temporal.TimeoutError)
	*into = t
	return ok
}

// ddTaskErrorOf is the task's error as the run reads it (docs/dandori.md, "Errors").
func ddTaskErrorOf(line int, task, name, message string) *ddTaskError {
	cause := ""
	if message != "" {
		cause = ": " + message
	}
	at := "line " + ddNumberText(float64(line)) + ": " + task
	switch name {
	case "timeout":
		return &ddTaskError{Kind: name, Failure: "Dandori.Timeout", Reason: at + " timed out" + cause}
	case "failure":
		return &ddTaskError{Kind: name, Failure: "Dandori.Failure", Reason: at + " failed" + cause}
	default:
		var reason any
		if message != "" {
			reason = message
		}
		return &ddTaskError{Kind: name, Failure: name, Reason: reason}
	}
}

// ddRule is how a call is tried: its line and task for reasons, its declared errors and its retriers.
type ddRule struct {
	Line   int
	Task   string
	Errors []string
	Retry  []ddRetrier
}

// ddAttempt tries a call as Step Functions' retriers say: the first retrier that takes an error
// decides whether it is tried again, each counting its own retries, waiting ddRetryDelayMs
// between. A cancel passes through as it is; any other error ends as a *ddTaskError.
func ddAttempt(ctx workflow.Context, rule ddRule, call func(ctx workflow.Context, n int) (any, error)) (any, error) {
	used := make([]int, len(rule.Retry))
	for n := 1; ; n++ {
		got, err := call(ctx, n)
		if err == nil {
			return got, nil
		}
		if temporal.IsCanceledError(err) {
			return nil, err
		}
		name, message := ddErrorOf(err, rule.Errors)
		i := ddRetrierFor(rule.Retry, name)
		if i < 0 || used[i] >= rule.Retry[i].MaxAttempts {
			return nil, ddTaskErrorOf(rule.Line, rule.Task, name, message)
		}
		used[i]++
		if err := workflow.Sleep(ctx, ddTimer(float64(ddRetryDelayMs(rule.Retry[i], used[i]))/1000)); err != nil {
			return nil, err
		}
	}
}

// ddRounds runs iteration for every item, k at a time, in list order; a failing iteration does not
// stop the others. Then a cancel wins, else the first failure in list order is returned, else the
// yields of every iteration in list order (docs/dandori.md, "Parallel iterations").
func ddRounds(ctx workflow.Context, k int, items []any, iteration func(ctx workflow.Context, item any, count int) ([]any, error)) ([]any, error) {
	type result struct {
		yields []any
		err    error
	}
	results := make([]result, len(items))
	next := 0
	var cancelled error
	lanes := workflow.NewWaitGroup(ctx)
	for range min(ddWidth(k), len(items)) {
		lanes.Add(1)
		workflow.Go(ctx, func(ctx workflow.Context) {
			defer lanes.Done()
			for next < len(items) && cancelled == nil {
				i := next
				next++
				yields, err := iteration(ctx, items[i], i+1)
				results[i] = result{yields: yields, err: err}
				if err != nil && temporal.IsCanceledError(err) && cancelled == nil {
					cancelled = err
				}
			}
		})
	}
	lanes.Wait(ctx)
	if cancelled != nil {
		return nil, cancelled
	}
	out := []any{}
	for _, r := range results {
		if r.err != nil {
			return nil, r.err
		}
		out = append(out, r.yields...)
	}
	return out, nil
}

// ---------------------------------------------------------------------------------------------
// One run's state, and the answers that wait: callbacks (Update dandori.answer, signal
// dandori.callback) and events (Update dandori.event). A worker runs many runs in one process, so
// none of it is a package variable.

// ddRun is what one run knows beside its variables.
type ddRun struct {
	at              int
	cases           map[string]any
	caseOrder       []string
	handedOn        map[string]bool
	callbackAnswers map[string]map[string]any
	awaited         []string
	eventAnswers    map[string]map[string]any
}

// Where is where a run is, as the query dandori.status answers: the line it waits at (nil:
// none), each case's record (nil until it starts), the events it waits for.
type Where struct {
	At     *int           `json:"at"`
	Cases  map[string]any `json:"cases"`
	Events []string       `json:"events"`
}

// ddStart makes a run's state with its cases (none started) and sets its handlers: the query, the
// Updates with their validators, and the loop that takes the callback signal.
func ddStart(ctx workflow.Context, cases []string) (*ddRun, error) {
	r := &ddRun{
		cases:           map[string]any{},
		caseOrder:       cases,
		handedOn:        map[string]bool{},
		callbackAnswers: map[string]map[string]any{},
		eventAnswers:    map[string]map[string]any{},
	}
	for _, c := range cases {
		r.cases[c] = nil
	}
	if err := workflow.SetQueryHandler(ctx, "dandori.status", r.status); err != nil {
		return nil, err
	}
	answer := workflow.UpdateHandlerOptions{Validator: r.validateAnswer}
	if err := workflow.SetUpdateHandlerWithOptions(ctx, "dandori.answer", r.takeAnswer, answer); err != nil {
		return nil, err
	}
	event := workflow.UpdateHandlerOptions{Validator: r.validateEvent}
	if err := workflow.SetUpdateHandlerWithOptions(ctx, "dandori.event", r.takeEvent, event); err != nil {
		return nil, err
	}
	signals := workflow.GetSignalChannel(ctx, "dandori.callback")
	workflow.Go(ctx, func(ctx workflow.Context) {
		for {
			// Any JSON is read, so that no signal's value can fail the workflow task.
			var a any
			signals.Receive(ctx, &a)
			m, _ := a.(map[string]any)
			r.takeSignal(m)
		}
	})
	return r, nil
}

func (r *ddRun) status() (Where, error) {
	cases := map[string]any{}
	for k, v := range r.cases {
		cases[k] = v
	}
	s := Where{Cases: cases, Events: append([]string{}, r.awaited...)}
	if r.at != 0 {
		at := r.at
		s.At = &at
	}
	return s, nil
}

// resume takes the cases of the run this one continues.
func (r *ddRun) resume(cases map[string]any) {
	for k, v := range cases {
		r.cases[k] = v
	}
}

func (r *ddRun) validateAnswer(a map[string]any) error {
	id, _ := a["id"].(string)
	if !r.handedOn[id] {
		return errors.New("dandori: no callback " + id + " is awaited")
	}
	if _, ok := r.callbackAnswers[id]; ok {
		return errors.New("dandori: callback " + id + " was answered before")
	}
	return nil
}

func (r *ddRun) takeAnswer(ctx workflow.Context, a map[string]any) (bool, error) {
	id, _ := a["id"].(string)
	r.callbackAnswers[id] = a
	return true, nil
}

// takeSignal takes a callback's answer sent as the signal dandori.callback: one not awaited is dropped.
func (r *ddRun) takeSignal(a map[string]any) {
	id, _ := a["id"].(string)
	if _, ok := r.callbackAnswers[id]; r.handedOn[id] && !ok {
		r.callbackAnswers[id] = a
	}
}

func (r *ddRun) validateEvent(a map[string]any) error {
	name, _ := a["event"].(string)
	if !r.waiting(name) {
		return errors.New("dandori: the event " + name + " is not awaited")
	}
	if _, ok := r.eventAnswers[name]; ok {
		return errors.New("dandori: the event " + name + " came already")
	}
	return nil
}

func (r *ddRun) takeEvent(ctx workflow.Context, a map[string]any) (bool, error) {
	name, _ := a["event"].(string)
	r.eventAnswers[name] = a
	return true, nil
}

func (r *ddRun) waiting(name string) bool {
	for _, n := range r.awaited {
		if n == name {
			return true
		}
	}
	return false
}

// ddRead is an answer's value, or its error.
func ddRead(a map[string]any) (any, error) {
	if v, ok := a["ok"]; ok {
		return v, nil
	}
	name, _ := a["error"].(string)
	message, _ := a["message"].(string)
	return nil, &ddAnswered{Name: name, Message: message}
}

// ddWait is how long an answer is waited for: Seconds, or until the time Until (a timestamp's text) when UntilGiven.
type ddWait struct {
	Seconds    float64
	Until      any
	UntilGiven bool
}

// seconds is the wait's length from now, on the workflow's clock.
func (w ddWait) seconds(ctx workflow.Context) (float64, error) {
	if !w.UntilGiven {
		return w.Seconds, nil
	}
	text, _ := w.Until.(string)
	deadline, ok := ddTimestampMs(text)
	if !ok {
		return 0, ddFail("Dandori.BadInput", "the deadline "+ddText(w.Until)+" is not a timestamp")
	}
	return float64(ddSecondsUntil(deadline, workflow.Now(ctx).UnixMilli())), nil
}

// awaitCallback hands a callback's id on (handOn, the activity) and waits for its answer; the
// wait is counted from when the activity returned.
func (r *ddRun) awaitCallback(ctx workflow.Context, id string, wait ddWait, handOn func() (any, error)) (any, error) {
	r.handedOn[id] = true
	defer delete(r.handedOn, id)
	if _, err := handOn(); err != nil {
		return nil, err
	}
	seconds, err := wait.seconds(ctx)
	if err != nil {
		return nil, err
	}
	got, err := workflow.AwaitWithTimeout(ctx, ddTimer(seconds), func() bool {
		_, ok := r.callbackAnswers[id]
		return ok
	})
	if err != nil {
		return nil, err
	}
	if !got {
		return nil, &ddWaitTimedOut{}
	}
	return ddRead(r.callbackAnswers[id])
}

// awaitEvent waits for the event name; a timeout is the task's timeout.
func (r *ddRun) awaitEvent(ctx workflow.Context, name string, wait ddWait) (any, error) {
	if !r.waiting(name) {
		r.awaited = append(r.awaited, name)
	}
	defer func() {
		kept := []string{}
		for _, n := range r.awaited {
			if n != name {
				kept = append(kept, n)
			}
		}
		r.awaited = kept
		delete(r.eventAnswers, name)
	}()
	seconds, err := wait.seconds(ctx)
	if err != nil {
		return nil, err
	}
	got, err := workflow.AwaitWithTimeout(ctx, ddEventWait(seconds), func() bool {
		_, ok := r.eventAnswers[name]
		return ok
	})
	if err != nil {
		return nil, err
	}
	if !got {
		return nil, &ddWaitTimedOut{}
	}
	return ddRead(r.eventAnswers[name])
}

// ddWaitUntil waits until the time at (a time already past does not wait).
func ddWaitUntil(ctx workflow.Context, at any) error {
	text, _ := at.(string)
	t, ok := ddTimestampMs(text)
	if !ok {
		return ddFail("Dandori.BadInput", "the time "+ddText(at)+" is not a timestamp")
	}
	if left := t - workflow.Now(ctx).UnixMilli(); left > 0 {
		return workflow.Sleep(ctx, ddTimer(float64(left)/1000))
	}
	return nil
}

// ---------------------------------------------------------------------------------------------
// The workflow's ids.

// ddKey is a call's key in this execution (continuations keep the workflow id, so keys stay).
func ddKey(ctx workflow.Context, place string, loops []int) string {
	return ddIdempotencyKey(workflow.GetInfo(ctx).WorkflowExecution.ID, place, loops)
}

// ddCallbackID is the id a callback's answer comes back with: the execution and the call's place, loops and attempt.
func ddCallbackID(ctx workflow.Context, place string, loops []int, attempt int) string {
	call := strings.Join(ddCounts(append(append([]int{}, loops...), attempt)), "/")
	return ddJSONObject(map[string]any{"workflow": workflow.GetInfo(ctx).WorkflowExecution.ID, "call": place + "/" + call}, []string{"workflow", "call"})
}

// ddCounts is each count as digits.
func ddCounts(counts []int) []string {
	out := make([]string, len(counts))
	for i, n := range counts {
		out[i] = ddNumberText(float64(n))
	}
	return out
}

// ddChildID is a child workflow's id: <parent id>/<place>/<loop counts>/<attempt>.
func ddChildID(ctx workflow.Context, place string, loops []int, attempt int) string {
	return ddKey(ctx, place, loops) + "/" + ddNumberText(float64(attempt))
}

// ---------------------------------------------------------------------------------------------
// Continue-As-New of the outermost loop, and the cases' search attribute.

// ddResume is where a continued run starts: the outermost loop's statement, its iteration, the
// variables and the cases (the shape the TypeScript package continues with).
type ddResume struct {
	At        int            `json:"at"`
	Iteration int            `json:"iteration"`
	Vars      map[string]any `json:"vars"`
	Cases     map[string]any `json:"cases"`
}

// ddContinuing is true when an outermost iteration, not the first this run makes, should start a new run.
func ddContinuing(ctx workflow.Context, ranHere int) bool {
	if ranHere == 0 {
		return false
	}
	info := workflow.GetInfo(ctx)
	return info.GetCurrentHistoryLength() >= ddContinueAt || info.GetContinueAsNewSuggested()
}

// continueFrom continues the run as a new one of the same workflow type with the same input, from resume.
func (r *ddRun) continueFrom(ctx workflow.Context, input any, resume ddResume) error {
	resume.Cases = map[string]any{}
	for k, v := range r.cases {
		resume.Cases[k] = v
	}
	return workflow.NewContinueAsNewError(ctx, workflow.GetInfo(ctx).WorkflowType.Name, input, resume)
}

// ddMemoConverter is the key of the workflow context's value that reads the memo, which a Go
// workflow is given as it is stored: an encrypted flow's worker and Replay set the codec's data
// converter there (ddEncryptedWorkflow, worker.go); a memo in clear is read with the default one.
type ddMemoConverter struct{}

// showCases writes the cases' states into the search attribute DandoriCases (<case>=<state>, in
// the flow's order) when the run was started with it (the memo dandori.cases).
func (r *ddRun) showCases(ctx workflow.Context) error {
	field, ok := workflow.GetInfo(ctx).Memo.GetFields()["dandori.cases"]
	memo, given := ctx.Value(ddMemoConverter{}).(converter.DataConverter)
	if !given {
		memo = converter.GetDefaultDataConverter()
	}
	var on bool
	if !ok || memo.FromPayload(field, &on) != nil || !on {
		return nil
	}
	states := []string{}
	for _, name := range r.caseOrder {
		if c, started := r.cases[name].(map[string]any); started {
			states = append(states, name+"="+ddText(c["state"]))
		}
	}
	return workflow.UpsertTypedSearchAttributes(ctx, temporal.NewSearchAttributeKeyKeywordList("DandoriCases").ValueSet(states))
}

// ---------------------------------------------------------------------------------------------
// One attempt of what a call calls.

// ddActivity runs a task as an activity with its StartToCloseTimeout and the heartbeat timeout;
// Temporal tries it once, and the workflow retries.
func ddActivity(ctx workflow.Context, task string, startToClose time.Duration, args map[string]any, call Call) (any, error) {
	options := workflow.ActivityOptions{StartToCloseTimeout: startToClose, HeartbeatTimeout: ddHeartbeatTimeout, RetryPolicy: &temporal.RetryPolicy{MaximumAttempts: 1}}
	var got any
	err := workflow.ExecuteActivity(workflow.WithActivityOptions(ctx, options), task, args, call).Get(ctx, &got)
	return got, err
}

// ddChild runs a child workflow of a type with its id, on a task queue (empty: the parent's), for at most timeout (0: as long as it runs).
func ddChild(ctx workflow.Context, workflowType, id, queue string, timeout time.Duration, args map[string]any) (any, error) {
	options := workflow.ChildWorkflowOptions{WorkflowID: id, TaskQueue: queue, WorkflowExecutionTimeout: timeout}
	var got any
	err := workflow.ExecuteChildWorkflow(workflow.WithChildOptions(ctx, options), workflowType, args).Get(ctx, &got)
	return got, err
}

// ddBookDone is true when a book's answer is done or done before.
func ddBookDone(v any) bool {
	r := ddField(v, "result")
	return r == "done" || r == "done_before"
}
