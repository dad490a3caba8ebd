// The Go runner of verify/chobo/runners/README.md on TigerBeetle: plays every job of a jobs.json at once
// through each book's generated tigerbeetle-go client on tigerbeetle-go v0.17.9 (or, in tests
// only, on the test double's bridge), and prints what each step answered, what each operation
// sent, and the accounts and holds at the end. buildTbGoRunner (tigerbeetle.ts) copies this file
// and common.go next to a generated main.go that holds the table of the books.

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"

	tb "github.com/tigerbeetle/tigerbeetle-go"
)

// settlePoll is how often a pass reads the held amounts while it waits for them to return.
const settlePoll = 100 * time.Millisecond

// bridgeIdleConns is how many idle connections to the test double's bridge a client keeps.
const bridgeIdleConns = 64

// tbJobsFile is jobs.json; its "clients" and "members" are not read, since the clients are
// compiled in.
type tbJobsFile struct {
	Addresses   string `json:"addresses"`
	Double      string `json:"double"`
	Connections int    `json:"connections"`
	holdTimes
	SettleMs int64       `json:"settle_ms"`
	Jobs     []tbJobSpec `json:"jobs"`
}

type tbJobSpec struct {
	jobName
	Steps    []tbStepSpec `json:"steps"`
	Accounts []string     `json:"accounts"`
	Holds    []stepSpec   `json:"holds"`
}

// tbStepSpec is a step; a pass carries what the accounts may hold out once it has settled.
type tbStepSpec struct {
	stepSpec
	HeldOut []map[string]string `json:"held_out"`
}

// request is one request as sent: its kind, then its events or its ids (kind first, as the
// verifier compares a request's text).
type request struct {
	Kind   string               `json:"kind"`
	Events *[]map[string]string `json:"events,omitempty"`
	IDs    *[]string            `json:"ids,omitempty"`
}

// operation is what one call sent.
type operation struct {
	Requests []request `json:"requests"`
}

type tbJobResult struct {
	ID       string        `json:"id"`
	Steps    []any         `json:"steps"`
	Late     bool          `json:"late"`
	Sent     [][]operation `json:"sent"`
	Accounts [][]string    `json:"accounts"`
	Holds    []*string     `json:"holds"`
}

// tigerBeetle is what the generated packages take of tigerbeetle-go's Client (their
// TigerBeetleClient).
type tigerBeetle interface {
	CreateAccounts(accounts []tb.Account) ([]tb.CreateAccountResult, error)
	CreateTransfers(transfers []tb.Transfer) ([]tb.CreateTransferResult, error)
	LookupAccounts(accountIDs []tb.Uint128) ([]tb.Account, error)
	LookupTransfers(transferIDs []tb.Uint128) ([]tb.Transfer, error)
}

// connection is one of the runner's clients, which it closes at the end.
type connection interface {
	tigerBeetle
	Close()
}

// tbBook is one book value: its operations by "<transfer>.<op>", and the state of a hold of a
// transfer by its key ("" when there is none).
type tbBook struct {
	call   callFunc
	status func(ctx context.Context, transfer string, key step) (string, error)
}

// tigerBeetleBook is one book value of a generated package: B its *Book, R its Result, S its
// HoldState.
func tigerBeetleBook[B any, R any, S ~string](
	b B,
	ops map[string]func(context.Context, B, step) (R, error),
	answer func(R) (outcome, reason string),
	states map[string]func(context.Context, B, step) (S, error),
) tbBook {
	return tbBook{
		call: bookCalls(b, ops, answer),
		status: func(ctx context.Context, transfer string, key step) (string, error) {
			state, ok := states[transfer]
			if !ok {
				return "", fmt.Errorf("%s makes no holds", transfer)
			}
			s, err := state(ctx, b, key)
			return string(s), err
		},
	}
}

// The fields of the events a recording writes down (README).
var (
	recordedAccountFields  = []string{"id", "user_data_128", "user_data_64", "user_data_32", "ledger", "code", "flags"}
	recordedTransferFields = []string{
		"id", "debit_account_id", "credit_account_id", "amount", "pending_id", "user_data_128",
		"user_data_64", "user_data_32", "timeout", "ledger", "code", "flags",
	}
)

func decimal(u tb.Uint128) string { return u.BigInt().String() }

func hexID(u tb.Uint128) string { return fmt.Sprintf("%032x", u.BigInt()) }

func decimals(ids []tb.Uint128) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = decimal(id)
	}
	return out
}

var uint128Type = reflect.TypeFor[tb.Uint128]()

// tbName is the name in TigerBeetle of a field of tigerbeetle-go's Account or Transfer:
// DebitAccountID is debit_account_id, UserData128 is user_data_128.
func tbName(goName string) string {
	var out strings.Builder
	runes := []rune(goName)
	for i, r := range runes {
		if i > 0 && (unicode.IsUpper(r) && !unicode.IsUpper(runes[i-1]) || unicode.IsDigit(r) && !unicode.IsDigit(runes[i-1])) {
			out.WriteByte('_')
		}
		out.WriteRune(unicode.ToLower(r))
	}
	return out.String()
}

// eventFields is every field of an Account or a Transfer as a decimal string, by its name in
// TigerBeetle; flags as the number TigerBeetle gets.
func eventFields(event any) map[string]string {
	v := reflect.ValueOf(event)
	out := make(map[string]string, v.NumField())
	for i := range v.NumField() {
		name := tbName(v.Type().Field(i).Name)
		if f := v.Field(i); f.Type() == uint128Type {
			out[name] = decimal(f.Interface().(tb.Uint128))
		} else {
			out[name] = strconv.FormatUint(f.Uint(), 10)
		}
	}
	return out
}

// readEvent sets every field of *event, an Account or a Transfer, from its decimal string in fields.
func readEvent(fields map[string]string, event any) error {
	v := reflect.ValueOf(event).Elem()
	for i := range v.NumField() {
		name := tbName(v.Type().Field(i).Name)
		text := fields[name]
		f := v.Field(i)
		if f.Type() == uint128Type {
			n, ok := new(big.Int).SetString(text, 10)
			if !ok || n.Sign() < 0 || n.BitLen() > 128 {
				return fmt.Errorf("field %s is %q", name, text)
			}
			f.Set(reflect.ValueOf(tb.BigIntToUint128(n)))
			continue
		}
		n, err := strconv.ParseUint(text, 10, f.Type().Bits())
		if err != nil {
			return fmt.Errorf("field %s is %q", name, text)
		}
		f.SetUint(n)
	}
	return nil
}

// eventsOf is each event's fields: those only names, or every field when only is nil.
func eventsOf[E any](batch []E, only []string) []map[string]string {
	out := make([]map[string]string, len(batch))
	for i, e := range batch {
		all := eventFields(e)
		if only == nil {
			out[i] = all
			continue
		}
		out[i] = make(map[string]string, len(only))
		for _, name := range only {
			out[i][name] = all[name]
		}
	}
	return out
}

// recording is the same client, with every request written down in requests before it is sent.
// A recording serves one goroutine: a job's own book value, or one caller of a together.
type recording struct {
	client   tigerBeetle
	requests []request
}

func (r *recording) noteEvents(kind string, events []map[string]string) {
	r.requests = append(r.requests, request{Kind: kind, Events: &events})
}

func (r *recording) noteIDs(kind string, ids []tb.Uint128) {
	list := decimals(ids)
	r.requests = append(r.requests, request{Kind: kind, IDs: &list})
}

func (r *recording) CreateAccounts(accounts []tb.Account) ([]tb.CreateAccountResult, error) {
	r.noteEvents("create_accounts", eventsOf(accounts, recordedAccountFields))
	return r.client.CreateAccounts(accounts)
}

func (r *recording) CreateTransfers(transfers []tb.Transfer) ([]tb.CreateTransferResult, error) {
	r.noteEvents("create_transfers", eventsOf(transfers, recordedTransferFields))
	return r.client.CreateTransfers(transfers)
}

func (r *recording) LookupAccounts(accountIDs []tb.Uint128) ([]tb.Account, error) {
	r.noteIDs("lookup_accounts", accountIDs)
	return r.client.LookupAccounts(accountIDs)
}

func (r *recording) LookupTransfers(transferIDs []tb.Uint128) ([]tb.Transfer, error) {
	r.noteIDs("lookup_transfers", transferIDs)
	return r.client.LookupTransfers(transferIDs)
}

// operation is what the recording noted since the last one, as one call's operation.
func (r *recording) operation() operation {
	op := operation{Requests: r.requests}
	if op.Requests == nil {
		op.Requests = []request{}
	}
	r.requests = nil
	return op
}

// doubleBridge is a client of the TEST DOUBLE's bridge (README, tests only), NOT TigerBeetle: the
// four methods of tigerbeetle-go's Client, each a POST of the events or ids with every field a
// decimal string, answered with the library's own types so the generated client sees what
// tigerbeetle-go's Client gives.
type doubleBridge struct {
	url    string
	client *http.Client
}

func newDoubleBridge(url string) *doubleBridge {
	transport := &http.Transport{MaxIdleConnsPerHost: bridgeIdleConns}
	return &doubleBridge{url: url, client: &http.Client{Transport: transport}}
}

func (d *doubleBridge) post(op string, body any, answer any) error {
	text, err := json.Marshal(body)
	if err != nil {
		return err
	}
	res, err := d.client.Post(d.url+"/"+op, "application/json", bytes.NewReader(text))
	if err != nil {
		return err
	}
	defer res.Body.Close()
	got, err := io.ReadAll(res.Body)
	if err != nil {
		return err
	}
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("the test double's bridge: %s", got)
	}
	return json.Unmarshal(got, answer)
}

// create posts every field of each event; R is the result the library gives for a status.
func create[E any, R any](d *doubleBridge, op string, batch []E, result func(status uint32) R) ([]R, error) {
	var answer struct {
		Results []string `json:"results"`
	}
	if err := d.post(op, map[string]any{"events": eventsOf(batch, nil)}, &answer); err != nil {
		return nil, err
	}
	out := make([]R, len(answer.Results))
	for i, text := range answer.Results {
		status, err := strconv.ParseUint(text, 10, 32)
		if err != nil {
			return nil, fmt.Errorf("the test double's bridge: status %q", text)
		}
		out[i] = result(uint32(status))
	}
	return out, nil
}

// lookup posts the ids, and reads each event found as the library's type E.
func lookup[E any](d *doubleBridge, op string, ids []tb.Uint128) ([]E, error) {
	var answer struct {
		Found []map[string]string `json:"found"`
	}
	if err := d.post(op, map[string]any{"ids": decimals(ids)}, &answer); err != nil {
		return nil, err
	}
	out := make([]E, len(answer.Found))
	for i, found := range answer.Found {
		if err := readEvent(found, &out[i]); err != nil {
			return nil, fmt.Errorf("the test double's bridge: %w", err)
		}
	}
	return out, nil
}

func (d *doubleBridge) CreateAccounts(accounts []tb.Account) ([]tb.CreateAccountResult, error) {
	return create(d, "create_accounts", accounts, func(status uint32) tb.CreateAccountResult {
		return tb.CreateAccountResult{Status: tb.CreateAccountStatus(status)}
	})
}

func (d *doubleBridge) CreateTransfers(transfers []tb.Transfer) ([]tb.CreateTransferResult, error) {
	return create(d, "create_transfers", transfers, func(status uint32) tb.CreateTransferResult {
		return tb.CreateTransferResult{Status: tb.CreateTransferStatus(status)}
	})
}

func (d *doubleBridge) LookupAccounts(accountIDs []tb.Uint128) ([]tb.Account, error) {
	return lookup[tb.Account](d, "lookup_accounts", accountIDs)
}

func (d *doubleBridge) LookupTransfers(transferIDs []tb.Uint128) ([]tb.Transfer, error) {
	return lookup[tb.Transfer](d, "lookup_transfers", transferIDs)
}

// Close lets go of the idle connections: each request is an HTTP request of its own.
func (d *doubleBridge) Close() { d.client.CloseIdleConnections() }

// connect is a client of cluster 0 at the addresses, or (tests only) of the test double's bridge.
func connect(jobs tbJobsFile) (connection, error) {
	if jobs.Double != "" {
		return newDoubleBridge(jobs.Double), nil
	}
	client, err := tb.NewClient(tb.ToUint128(0), strings.Split(jobs.Addresses, ","))
	if err != nil {
		return nil, err
	}
	return client, nil
}

type tbRunner struct {
	clients []connection
	books   map[string]func(c tigerBeetle, tenant string) tbBook
	times   holdTimes
	settle  time.Duration
}

func hexIDs(ids []string) ([]tb.Uint128, error) {
	out := make([]tb.Uint128, len(ids))
	for i, id := range ids {
		u, err := tb.HexStringToUint128(id)
		if err != nil {
			return nil, fmt.Errorf("account id %q: %w", id, err)
		}
		out[i] = u
	}
	return out, nil
}

// settled reads debits_pending until one of the maps holds (an account not found holds 0), at
// most the settle time; false when none did.
func (r *tbRunner) settled(c tigerBeetle, maps []map[string]string) (bool, error) {
	var listed []string
	for _, m := range maps {
		for id := range m {
			listed = append(listed, id)
		}
	}
	ids, err := hexIDs(listed)
	if err != nil {
		return false, err
	}
	until := time.Now().Add(r.settle)
	for {
		found, err := c.LookupAccounts(ids)
		if err != nil {
			return false, err
		}
		held := make(map[string]string, len(found))
		for _, a := range found {
			held[hexID(a.ID)] = decimal(a.DebitsPending)
		}
		for _, m := range maps {
			if holdsOut(held, m) {
				return true, nil
			}
		}
		if time.Now().After(until) {
			return false, nil
		}
		time.Sleep(settlePoll)
	}
}

// holdsOut is true when every account of want holds out the amount given there.
func holdsOut(held, want map[string]string) bool {
	for id, amount := range want {
		got, ok := held[id]
		if !ok {
			got = "0"
		}
		if got != amount {
			return false
		}
	}
	return true
}

// together plays caller c on a new book value on client (i + c) mod connections, all at once;
// the operations are caller 1's in order, then caller 2's, and so on.
func (r *tbRunner) together(ctx context.Context, i int, tenant string, newBook func(tigerBeetle, string) tbBook, clock *holdClock, callers [][]stepSpec) ([][]string, []operation) {
	answers := make([][]string, len(callers))
	operations := make([][]operation, len(callers))
	var wg sync.WaitGroup
	for c, steps := range callers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			own := &recording{client: r.clients[(i+c)%len(r.clients)]}
			value := newBook(own, tenant)
			answers[c] = make([]string, 0, len(steps))
			operations[c] = make([]operation, 0, len(steps))
			for _, s := range steps {
				answers[c] = append(answers[c], call(ctx, value.call, clock, s))
				operations[c] = append(operations[c], own.operation())
			}
		}()
	}
	wg.Wait()
	all := []operation{}
	for _, ops := range operations {
		all = append(all, ops...)
	}
	return answers, all
}

// readAccounts reads the job's accounts for those found: [id, credits_posted − debits_posted,
// credits_pending, debits_pending].
func readAccounts(c tigerBeetle, listed []string) ([][]string, error) {
	ids, err := hexIDs(listed)
	if err != nil {
		return nil, err
	}
	found, err := c.LookupAccounts(ids)
	if err != nil {
		return nil, err
	}
	out := make([][]string, len(found))
	for i, a := range found {
		posted := new(big.Int).Sub(a.CreditsPosted.BigInt(), a.DebitsPosted.BigInt())
		out[i] = []string{hexID(a.ID), posted.String(), decimal(a.CreditsPending), decimal(a.DebitsPending)}
	}
	return out, nil
}

// holdStates reads each hold with the client's own Status on a new book value: its state, null
// when there is none, or failed:<message>.
func holdStates(ctx context.Context, reader tbBook, holds []stepSpec) []*string {
	out := make([]*string, len(holds))
	for i, h := range holds {
		state, err := reader.status(ctx, h.Call, step{strings: h.Strings})
		switch {
		case err != nil:
			failed := "failed:" + err.Error()
			out[i] = &failed
		case state != "":
			out[i] = &state
		}
	}
	return out
}

func (r *tbRunner) play(ctx context.Context, i int, spec tbJobSpec) (tbJobResult, error) {
	newBook, ok := r.books[spec.Book]
	if !ok {
		return tbJobResult{}, fmt.Errorf("%s: no Go client for the book %s", spec.ID, spec.Book)
	}
	client := r.clients[i%len(r.clients)]
	own := &recording{client: client}
	book := newBook(own, spec.Tenant)
	clock := r.times.newClock()
	result := tbJobResult{ID: spec.ID, Steps: make([]any, 0, len(spec.Steps)), Sent: make([][]operation, 0, len(spec.Steps))}
	for _, s := range spec.Steps {
		switch {
		case s.Pass:
			clock.pass()
			settled, err := r.settled(client, s.HeldOut)
			if err != nil {
				return result, fmt.Errorf("%s: a pass: %w", spec.ID, err)
			}
			result.Sent = append(result.Sent, []operation{})
			if settled {
				result.Steps = append(result.Steps, nil)
			} else {
				result.Steps = append(result.Steps, "unsettled")
			}
		case s.Together != nil:
			clock.check()
			answers, operations := r.together(ctx, i, spec.Tenant, newBook, clock, s.Together)
			result.Steps = append(result.Steps, answers)
			result.Sent = append(result.Sent, operations)
		default:
			clock.check()
			result.Steps = append(result.Steps, call(ctx, book.call, clock, s.stepSpec))
			result.Sent = append(result.Sent, []operation{own.operation()})
		}
	}
	var err error
	if result.Accounts, err = readAccounts(client, spec.Accounts); err != nil {
		return result, fmt.Errorf("%s: the accounts: %w", spec.ID, err)
	}
	result.Holds = holdStates(ctx, newBook(client, spec.Tenant), spec.Holds)
	clock.check()
	result.Late = clock.isLate()
	return result, nil
}

func runTigerBeetle(args []string, books map[string]func(c tigerBeetle, tenant string) tbBook) error {
	var jobs tbJobsFile
	if err := readJobs(args, &jobs); err != nil {
		return err
	}
	r := &tbRunner{
		books:  books,
		times:  jobs.holdTimes,
		settle: time.Duration(jobs.SettleMs) * time.Millisecond,
	}
	defer func() {
		for _, c := range r.clients {
			c.Close()
		}
	}()
	for range jobs.Connections {
		c, err := connect(jobs)
		if err != nil {
			return err
		}
		r.clients = append(r.clients, c)
	}
	ctx := context.Background()
	return playAll(jobs.Jobs, func(i int, spec tbJobSpec) (tbJobResult, error) {
		return r.play(ctx, i, spec)
	})
}
