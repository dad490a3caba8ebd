// The part of every chobo TigerBeetle client in Go that is the same for every book
// (docs/targets.md#tigerbeetle): the ids, the accounts, openings and chain each operation sends,
// how TigerBeetle's answers read, and the steps of one call. `chobo build --target tigerbeetle-go`
// copies this file as <package>/runtime.go after its generated header; the package clause below is
// the one line it changes. targets/chobo/tigerbeetle/{ids,chain,results,client}.ts are the same
// steps in TypeScript, and the tests hold both to the same requests.
//
// A book builds against tigerbeetle-go v0.17.9, which is cgo over a bundled static library: a
// build needs a C compiler. Account, Transfer, Uint128 and the create results and statuses are its
// types under their own names, and TigerBeetleClient is the part of its Client a book uses, which
// the Client that tb.NewClient returns satisfies.

package book

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	tb "github.com/tigerbeetle/tigerbeetle-go"
)

// The types of tigerbeetle-go that a book sends and reads. Uint128 is 16 bytes, least significant
// first.
type (
	Uint128              = tb.Uint128
	Account              = tb.Account
	Transfer             = tb.Transfer
	CreateAccountStatus  = tb.CreateAccountStatus
	CreateTransferStatus = tb.CreateTransferStatus
	CreateAccountResult  = tb.CreateAccountResult
	CreateTransferResult = tb.CreateTransferResult
)

// TigerBeetleClient is what a book needs of tigerbeetle-go's Client: the two creates, which answer
// every event, and the two lookups, which return what exists in the order asked. Its Client is one;
// tests give a fake.
type TigerBeetleClient interface {
	CreateAccounts(accounts []Account) ([]CreateAccountResult, error)
	CreateTransfers(transfers []Transfer) ([]CreateTransferResult, error)
	LookupAccounts(accountIDs []Uint128) ([]Account, error)
	LookupTransfers(transferIDs []Uint128) ([]Transfer, error)
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

// Events in one request to a replica started with --development (docs/codes.md#e060): accounts and
// openings go in requests of at most this many, and an operation's chain must fit in one.
const maxBatch = 253

// user_data_32 of a floor and a room account and of their openings.
const (
	floorMark = 1
	roomMark  = 2
)

// TigerBeetle's flag bits that chobo sets.
const (
	flagDebitsMustNotExceedCredits uint16 = 1 << 1
	flagLinked                     uint16 = 1 << 0
	flagPending                    uint16 = 1 << 1
	flagPostPending                uint16 = 1 << 2
	flagVoidPending                uint16 = 1 << 3
)

// The operations of a transfer.
const (
	opDo   = "do"
	opHold = "hold"
	opPost = "post"
	opVoid = "void"
)

// planDef is the book's TbPlan (targets/chobo/tigerbeetle/plan.ts, version planVersion) as the
// generated book.go writes it: parameters are indices into the transfer's, accounts and units
// indices into the plan's. The runtime fills its chain templates and reads answers by its tables.
type planDef struct {
	version   int
	name      string
	units     []unitDef
	accounts  []accountDef
	transfers []transferDef
	refusals  map[string]string
	status    []statusRow
	overHold  map[HoldState]string
}

// planVersion is the version of the plan this runtime runs (TB_PLAN_VERSION of plan.ts).
const planVersion = 1

type unitDef struct {
	name     string
	ledger   uint32
	sinkCode uint16
}

// accountDef is an account kind; floor and room are the openings of its floor (−L) and room (U),
// noBound (−1) where it has none.
type accountDef struct {
	name        string
	unit        int
	ledger      uint32
	code        uint16
	flags       uint16
	floor, room int64
}

// noBound marks an account kind without a floor or a room: every opening is 0 or more.
const noBound = -1

type paramDef struct {
	name   string
	amount bool
}

// refDef is an account a piece names: a book's account (index) with the transfer's parameters
// passed to it, its floor or room, or the sink of a unit (index).
type refDef struct {
	kind  accountKind
	index int
	args  []int
}

// moveDef is one move: param is the amount parameter, or -1 when the amount is literal (a post
// in part posts the parameter's amount and what is held of a literal).
type moveDef struct {
	param    int
	from, to refDef
}

// The sources of a piece's amount and pending_id (plan.ts AmountSource, PendingSource).
type amountKind int

const (
	amountParam amountKind = iota
	amountLiteral
	amountSettled
)

type pendingKind int

const (
	pendingNone pendingKind = iota
	pendingPiece
	pendingHold
)

// pieceDef is one transfer of a chain template: move is 1-based, exceedsCredits "" where
// exceeds_credits on it is not a refusal.
type pieceDef struct {
	role           string
	random         bool
	debit, credit  *refDef
	amount         amountKind
	param          int
	value          int64
	move           int
	pending        pendingKind
	pendingAt      int
	content        bool
	timeout        uint32
	ledger         uint32
	code           uint16
	flags          uint16
	exceedsCredits string
}

// chainDef is the template of one operation's chain; amounts is true when its content is the
// amounts posted, params when it is every parameter's value, neither for none.
type chainDef struct {
	params, amounts bool
	pieces          []pieceDef
}

// transferDef is one transfer kind: key holds parameter indices; lookups the positions in the hold
// chain of each move's move piece; definitionHash that of `chobo api`.
type transferDef struct {
	name           string
	params         []paramDef
	key            []int
	holds          bool
	moves          []moveDef
	chains         map[string]chainDef
	lookups        []int
	definitionHash string
}

// statusRow is the two results the status chain gives for a hold's state ("": no hold).
type statusRow struct {
	first, second string
	state         HoldState
}

// ---------------------------------------------------------------------------------------------
// Ids (docs/targets.md#ids).

const idPrefix = "chobo/1"

var maxUint128 = Uint128{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}

// idDigest is SHA-256 of enc("chobo/1") ‖ enc(role) ‖ enc(part) ‖ …, enc(s) being the UTF-8 byte
// length of s (32-bit big-endian), then s.
func idDigest(role string, parts []string) [sha256.Size]byte {
	h := sha256.New()
	var length [4]byte
	for _, s := range append([]string{idPrefix, role}, parts...) {
		binary.BigEndian.PutUint32(length[:], uint32(len(s)))
		h.Write(length[:])
		h.Write([]byte(s))
	}
	var d [sha256.Size]byte
	h.Sum(d[:0])
	return d
}

// id128 is the first 16 bytes of the digest, big-endian; 0 becomes 1 and 2¹²⁸ − 1 becomes 2¹²⁸ − 2.
func id128(role string, parts ...string) Uint128 {
	d := idDigest(role, parts)
	var u Uint128
	for i := range u {
		u[i] = d[15-i]
	}
	switch u {
	case Uint128{}:
		u[0] = 1
	case maxUint128:
		u[0] = 0xfe
	}
	return u
}

// hex32 is 32 lower-case hex digits, most significant first (an id as a part of another id).
func hex32(u Uint128) string {
	b := u.Bytes()
	slices.Reverse(b[:])
	return hex.EncodeToString(b[:])
}

// randomID is a random id other than 0 and 2¹²⁸ − 1 (the status chain's two).
func randomID() (Uint128, error) {
	for {
		var u Uint128
		if _, err := rand.Read(u[:]); err != nil {
			return Uint128{}, err
		}
		if u != (Uint128{}) && u != maxUint128 {
			return u, nil
		}
	}
}

// jsonStrings writes strings as JavaScript's JSON.stringify writes an array of them (a call's
// content, docs/targets.md#ids): only ", \ and control characters are escaped.
func jsonStrings(values []string) string {
	var b strings.Builder
	b.WriteByte('[')
	for i, s := range values {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteByte('"')
		for _, r := range s {
			switch r {
			case '"':
				b.WriteString(`\"`)
			case '\\':
				b.WriteString(`\\`)
			case '\b':
				b.WriteString(`\b`)
			case '\f':
				b.WriteString(`\f`)
			case '\n':
				b.WriteString(`\n`)
			case '\r':
				b.WriteString(`\r`)
			case '\t':
				b.WriteString(`\t`)
			default:
				if r < 0x20 {
					fmt.Fprintf(&b, `\u%04x`, r)
				} else {
					b.WriteRune(r)
				}
			}
		}
		b.WriteByte('"')
	}
	b.WriteByte(']')
	return b.String()
}

// ---------------------------------------------------------------------------------------------
// The client of one book value.

// client sends one book's operations for one tenant. It remembers the accounts and openings it
// created, so each is sent once per book value (docs/targets.md#before-the-chain).
type client struct {
	tigerbeetle TigerBeetleClient
	tenant      string
	def         *planDef
	random      func() (Uint128, error)
	batcher     *transferBatcher

	mu      sync.Mutex
	created map[Uint128]bool
}

// Option sets how a book value sends (TigerBeetle's options).
type Option func(*client)

// RequestLimit is the most transfers one request takes on the replica: 253 on one started with
// --development (the default), more with a larger --limit-request. The chains of operations made at
// once on one book value share requests up to it. Below 253 a chain E060 lets through would not fit,
// so TigerBeetle panics.
func RequestLimit(n int) Option {
	return func(c *client) {
		if n < maxBatch {
			panic(fmt.Sprintf("chobo: RequestLimit(%d), less than the %d transfers of E060's chain", n, maxBatch))
		}
		c.batcher.limit = n
	}
}

func newClient(tigerbeetle TigerBeetleClient, tenant string, def *planDef, options []Option) *client {
	if def.version != planVersion {
		panic(fmt.Sprintf("chobo: a plan of version %d, not %d, which this runtime runs", def.version, planVersion))
	}
	c := &client{tigerbeetle: tigerbeetle, tenant: tenant, def: def, random: randomID, created: map[Uint128]bool{}}
	c.batcher = &transferBatcher{client: tigerbeetle, limit: maxBatch}
	for _, o := range options {
		o(c)
	}
	return c
}

// ---------------------------------------------------------------------------------------------
// Sharing requests (docs/targets.md#before-the-chain).

// waitingChain is one chain waiting for its answers: wake gets false when they are there, true
// when its goroutine is to send next.
type waitingChain struct {
	events  []Transfer
	results []CreateTransferResult
	err     error
	wake    chan bool
}

// transferBatcher packs the chains that goroutines send at once on one book value into shared
// requests of at most limit transfers, each chain whole and in order, and gives each its own
// answers. One goroutine sends at a time: the first to find none sending takes every chain waiting
// (its own among them), sends them, and hands the turn to the first chain that came meanwhile, so no
// caller sends for others longer than one round.
type transferBatcher struct {
	client  TigerBeetleClient
	limit   int
	mu      sync.Mutex
	waiting []*waitingChain
	sending bool
}

func (b *transferBatcher) send(events []Transfer) ([]CreateTransferResult, error) {
	mine := &waitingChain{events: events, wake: make(chan bool, 1)}
	b.mu.Lock()
	b.waiting = append(b.waiting, mine)
	lead := !b.sending
	b.sending = true
	b.mu.Unlock()
	if lead || <-mine.wake {
		b.round()
	}
	return mine.results, mine.err
}

// round sends every chain waiting, then hands the turn on.
func (b *transferBatcher) round() {
	b.mu.Lock()
	waiting := b.waiting
	b.waiting = nil
	b.mu.Unlock()
	defer func() {
		b.mu.Lock()
		defer b.mu.Unlock()
		if len(b.waiting) == 0 {
			b.sending = false
			return
		}
		b.waiting[0].wake <- true
	}()
	var request []*waitingChain
	size := 0
	for _, w := range waiting {
		if size+len(w.events) > b.limit {
			b.dispatch(request, size)
			request, size = nil, 0
		}
		request = append(request, w)
		size += len(w.events)
	}
	b.dispatch(request, size)
}

// dispatch sends one request of chains. A lone chain reads its answers whatever they are
// (chainOutcome says what is wrong with them); chains side by side are told apart only by one
// answer an event.
func (b *transferBatcher) dispatch(request []*waitingChain, size int) {
	events := make([]Transfer, 0, size)
	for _, w := range request {
		events = append(events, w.events...)
	}
	results, err := b.client.CreateTransfers(events)
	if err == nil && len(request) > 1 && len(results) != size {
		err = fmt.Errorf("chobo: TigerBeetle answered %d results for the %d chains of one request, not one an event", len(results), len(request))
	}
	at := 0
	for _, w := range request {
		switch {
		case err != nil:
			w.err = err
		case len(request) == 1:
			w.results = results
		default:
			w.results = results[at : at+len(w.events)]
		}
		at += len(w.events)
		select {
		case w.wake <- false:
		default:
		}
	}
}

func (c *client) isCreated(id Uint128) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.created[id]
}

func (c *client) remember(ids []Uint128) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, id := range ids {
		c.created[id] = true
	}
}

// call is one operation with its arguments: text holds every given parameter as the content
// writes it, amounts the amount parameters; given says which parameters the caller passed.
type call struct {
	index   int
	t       *transferDef
	op      string
	text    []string
	amounts []int64
	given   []bool
}

// maxStringBytes is the longest string argument, the tenant too, in bytes of UTF-8
// (docs/reference.md#limits).
const maxStringBytes = 256

// ArgumentError is the error of an argument chobo refuses before anything is sent
// (docs/reference.md#limits): a string that is not valid UTF-8, holds U+0000 or is longer than 256
// bytes, or a negative amount. errors.As tells it from TigerBeetle's errors.
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

// newCall checks the arguments of an operation, by parameter: string or int64, nil where the
// operation does not take it (a post or void takes the key, and a partial post its amounts).
func (c *client) newCall(index int, op string, args []any) (*call, error) {
	t := &c.def.transfers[index]
	if (op != opDo) != t.holds {
		return nil, fmt.Errorf("chobo: %s has no operation %s", t.name, op)
	}
	if len(args) != len(t.params) {
		return nil, fmt.Errorf("chobo: %s.%s takes %d arguments, not %d", t.name, op, len(t.params), len(args))
	}
	if err := checkString("tenant", c.tenant); err != nil {
		return nil, err
	}
	cl := &call{index: index, t: t, op: op, text: make([]string, len(args)), amounts: make([]int64, len(args)), given: make([]bool, len(args))}
	for i, p := range t.params {
		switch v := args[i].(type) {
		case nil:
			continue
		case string:
			if p.amount {
				return nil, fmt.Errorf("chobo: %s.%s: %s is an amount", t.name, op, p.name)
			}
			if err := checkString(p.name, v); err != nil {
				return nil, err
			}
			cl.text[i] = v
		case int64:
			if !p.amount {
				return nil, fmt.Errorf("chobo: %s.%s: %s is a string", t.name, op, p.name)
			}
			if v < 0 {
				return nil, refuseArgument("%s.%s: the amount %s = %d is outside 0 … 2⁶³ − 1", t.name, op, p.name, v)
			}
			cl.text[i] = strconv.FormatInt(v, 10)
			cl.amounts[i] = v
		default:
			return nil, fmt.Errorf("chobo: %s.%s: %s is a %T", t.name, op, p.name, v)
		}
		cl.given[i] = true
	}
	for i, p := range t.params {
		if !cl.given[i] && (op == opDo || op == opHold || cl.isKey(i)) {
			return nil, fmt.Errorf("chobo: %s.%s: %s is missing", t.name, op, p.name)
		}
	}
	return cl, nil
}

func (cl *call) isKey(param int) bool {
	for _, k := range cl.t.key {
		if k == param {
			return true
		}
	}
	return false
}

func (cl *call) key() []string {
	key := make([]string, len(cl.t.key))
	for i, k := range cl.t.key {
		key[i] = cl.text[k]
	}
	return key
}

// partial is true for a post given its amounts.
func (cl *call) partial() bool {
	for i, p := range cl.t.params {
		if p.amount && cl.given[i] {
			return true
		}
	}
	return false
}

// ---------------------------------------------------------------------------------------------
// The plan's chain templates, filled (targets/chobo/tigerbeetle/chain.ts).

// accountKind says which TigerBeetle account stands for what.
type accountKind int

const (
	kindAccount accountKind = iota
	kindFloor
	kindRoom
	kindSink
)

// accountWhat is the chobo account a TigerBeetle account stands for: a book's account with its
// arguments, its floor or room, or the sink of a unit.
type accountWhat struct {
	kind    accountKind
	account int
	args    []string
	unit    int
}

type accountEvent struct {
	what  accountWhat
	event Account
}

// chainEntry is one transfer of a filled chain, with the refusal exceeds_credits on it stands for.
type chainEntry struct {
	exceedsCredits string
	transfer       Transfer
}

func (c *client) accountID(account int, args []string) Uint128 {
	return id128("account", append([]string{c.def.name, c.tenant, c.def.accounts[account].name}, args...)...)
}

func (c *client) sinkID(unit int) Uint128 {
	return id128("sink", c.def.name, c.tenant, c.def.units[unit].name)
}

func (c *client) transferID(t *transferDef, op string, key []string, position int) Uint128 {
	parts := append(append([]string{c.def.name, c.tenant, t.name, op}, key...), strconv.Itoa(position))
	return id128("transfer", parts...)
}

func (c *client) contentID(t *transferDef, op, content string) Uint128 {
	return id128("content", c.def.name, c.tenant, t.name, op, t.definitionHash, content)
}

// whatOf is the account a reference names, with the call's values for its arguments.
func (cl *call) whatOf(r *refDef) accountWhat {
	if r.kind == kindSink {
		return accountWhat{kind: kindSink, unit: r.index}
	}
	args := make([]string, len(r.args))
	for i, p := range r.args {
		args[i] = cl.text[p]
	}
	return accountWhat{kind: r.kind, account: r.index, args: args}
}

func (c *client) eventOf(w accountWhat) Account {
	if w.kind == kindSink {
		u := &c.def.units[w.unit]
		return Account{ID: c.sinkID(w.unit), Ledger: u.ledger, Code: u.sinkCode}
	}
	a := &c.def.accounts[w.account]
	own := c.accountID(w.account, w.args)
	if w.kind == kindAccount {
		return Account{ID: own, UserData128: id128("kind", c.def.name, c.tenant, a.name), Ledger: a.ledger, Code: a.code, Flags: a.flags}
	}
	e := Account{UserData128: own, Ledger: a.ledger, Code: a.code, Flags: flagDebitsMustNotExceedCredits}
	if w.kind == kindFloor {
		e.ID, e.UserData32 = id128("floor", hex32(own)), floorMark
	} else {
		e.ID, e.UserData32 = id128("room", hex32(own)), roomMark
	}
	return e
}

// openingOf is the opening of a floor (−L) or room (U) account: from the sink, keyed by its id.
func (c *client) openingOf(e accountEvent) (Transfer, bool) {
	w := e.what
	if w.kind != kindFloor && w.kind != kindRoom {
		return Transfer{}, false
	}
	a := &c.def.accounts[w.account]
	amount := a.room
	if w.kind == kindFloor {
		amount = a.floor
	}
	if amount == noBound {
		panic(fmt.Sprintf("chobo: the plan gives %s no opening for a piece that names it", a.name))
	}
	return Transfer{
		ID:              id128("opening", hex32(e.event.ID)),
		DebitAccountID:  c.sinkID(a.unit),
		CreditAccountID: e.event.ID,
		Amount:          tb.ToUint128(uint64(amount)),
		UserData128:     e.event.UserData128,
		UserData32:      e.event.UserData32,
		Ledger:          e.event.Ledger,
		Code:            e.event.Code,
	}, true
}

// sameAccount is true when a move's from and to are one account: the client answers
// same_account without sending anything (docs/targets.md#before-the-chain).
func (c *client) sameAccount(cl *call) bool {
	for mi := range cl.t.moves {
		m := &cl.t.moves[mi]
		if c.eventOf(cl.whatOf(&m.from)).ID == c.eventOf(cl.whatOf(&m.to)).ID {
			return true
		}
	}
	return false
}

// fill is the chain template of op filled for a call: ids, amounts (settled: what a post or void
// settles of each move), accounts (use: each account a piece names), pending ids.
func (c *client) fill(cl *call, op string, content string, settled []int64, use func(accountWhat) Uint128) ([]chainEntry, error) {
	t := cl.t
	chain, ok := t.chains[op]
	if !ok {
		return nil, fmt.Errorf("chobo: %s has no %s", t.name, op)
	}
	if len(chain.pieces) > maxBatch {
		return nil, fmt.Errorf("chobo: a chain of %d transfers, more than one request takes (E060)", len(chain.pieces))
	}
	key := cl.key()
	userData := c.contentID(t, op, content)
	out := make([]chainEntry, 0, len(chain.pieces))
	for position := range chain.pieces {
		p := &chain.pieces[position]
		tr := Transfer{Timeout: p.timeout, Ledger: p.ledger, Code: p.code, Flags: p.flags}
		if p.random {
			id, err := c.random()
			if err != nil {
				return nil, err
			}
			tr.ID = id
		} else {
			tr.ID = c.transferID(t, op, key, position)
		}
		if p.debit != nil {
			tr.DebitAccountID = use(cl.whatOf(p.debit))
		}
		if p.credit != nil {
			tr.CreditAccountID = use(cl.whatOf(p.credit))
		}
		switch p.amount {
		case amountParam:
			tr.Amount = tb.ToUint128(uint64(cl.amounts[p.param]))
		case amountLiteral:
			tr.Amount = tb.ToUint128(uint64(p.value))
		case amountSettled:
			tr.Amount = tb.ToUint128(uint64(settled[p.move-1]))
		}
		switch p.pending {
		case pendingPiece:
			tr.PendingID = out[p.pendingAt].transfer.ID
		case pendingHold:
			tr.PendingID = c.transferID(t, opHold, key, p.pendingAt)
		}
		if p.content {
			tr.UserData128 = userData
		}
		out = append(out, chainEntry{p.exceedsCredits, tr})
	}
	return out, nil
}

// moveChain fills a do or hold chain, with the accounts it names (in the order it first names
// them, debit before credit) and their openings.
func (c *client) moveChain(cl *call) ([]accountEvent, []Transfer, []chainEntry, error) {
	var accounts []accountEvent
	seen := map[Uint128]bool{}
	chain, err := c.fill(cl, cl.op, jsonStrings(cl.text), nil, func(w accountWhat) Uint128 {
		e := c.eventOf(w)
		if !seen[e.ID] {
			seen[e.ID] = true
			accounts = append(accounts, accountEvent{w, e})
		}
		return e.ID
	})
	if err != nil {
		return nil, nil, nil, err
	}
	var openings []Transfer
	for _, e := range accounts {
		if o, ok := c.openingOf(e); ok {
			openings = append(openings, o)
		}
	}
	return accounts, openings, chain, nil
}

// heldAmounts is what each move of a hold holds, from what lookup_transfers found; false when the
// hold is not there. Only part of a hold there is an error: one chain cannot leave that.
func heldAmounts(lookups []Uint128, found []Transfer) ([]int64, bool, error) {
	byID := map[Uint128]Transfer{}
	for _, f := range found {
		byID[f.ID] = f
	}
	if _, ok := byID[lookups[0]]; !ok {
		return nil, false, nil
	}
	held := make([]int64, len(lookups))
	for i, id := range lookups {
		f, ok := byID[id]
		if !ok {
			return nil, false, fmt.Errorf("chobo: the hold's transfer %s is missing while the first is there", hex32(id))
		}
		v, high := f.Amount.Uint64()
		if high != 0 || v > math.MaxInt64 {
			return nil, false, fmt.Errorf("chobo: the hold's transfer %s holds more than 2⁶³ − 1", hex32(id))
		}
		held[i] = int64(v)
	}
	return held, true, nil
}

// postAmounts is what each move of a post posts: its amount argument in a partial post, else
// what it holds.
func (cl *call) postAmounts(held []int64) []int64 {
	partial := cl.partial()
	out := make([]int64, len(cl.t.moves))
	for mi := range cl.t.moves {
		m := &cl.t.moves[mi]
		if partial && m.param >= 0 {
			out[mi] = cl.amounts[m.param]
		} else {
			out[mi] = held[mi]
		}
	}
	return out
}

// isOverHold is true when a post asks for more than a move holds: the status chain goes instead.
func (cl *call) isOverHold(held []int64) bool {
	if cl.op != opPost {
		return false
	}
	for i, a := range cl.postAmounts(held) {
		if a > held[i] {
			return true
		}
	}
	return false
}

// settleChain fills a post or void chain for what the hold holds.
func (c *client) settleChain(cl *call, held []int64) ([]chainEntry, error) {
	amounts, content := held, "[]"
	if cl.op == opPost {
		amounts = cl.postAmounts(held)
		if cl.t.chains[cl.op].amounts {
			texts := make([]string, len(amounts))
			for i, a := range amounts {
				texts[i] = strconv.FormatInt(a, 10)
			}
			content = jsonStrings(texts)
		}
	}
	return c.fill(cl, cl.op, content, amounts, nil)
}

// ---------------------------------------------------------------------------------------------
// Reading the answers (docs/targets.md#results; targets/chobo/tigerbeetle/results.ts).

var accountStatusNames = map[CreateAccountStatus]string{
	tb.AccountCreated:                        "created",
	tb.AccountLinkedEventFailed:              "linked_event_failed",
	tb.AccountExistsWithDifferentFlags:       "exists_with_different_flags",
	tb.AccountExistsWithDifferentUserData128: "exists_with_different_user_data_128",
	tb.AccountExistsWithDifferentUserData64:  "exists_with_different_user_data_64",
	tb.AccountExistsWithDifferentUserData32:  "exists_with_different_user_data_32",
	tb.AccountExistsWithDifferentLedger:      "exists_with_different_ledger",
	tb.AccountExistsWithDifferentCode:        "exists_with_different_code",
	tb.AccountExists:                         "exists",
}

var transferStatusNames = map[CreateTransferStatus]string{
	tb.TransferCreated:                            "created",
	tb.TransferLinkedEventFailed:                  "linked_event_failed",
	tb.TransferAccountsMustBeDifferent:            "accounts_must_be_different",
	tb.TransferDebitAccountNotFound:               "debit_account_not_found",
	tb.TransferCreditAccountNotFound:              "credit_account_not_found",
	tb.TransferPendingTransferNotFound:            "pending_transfer_not_found",
	tb.TransferExceedsPendingTransferAmount:       "exceeds_pending_transfer_amount",
	tb.TransferPendingTransferAlreadyPosted:       "pending_transfer_already_posted",
	tb.TransferPendingTransferAlreadyVoided:       "pending_transfer_already_voided",
	tb.TransferPendingTransferExpired:             "pending_transfer_expired",
	tb.TransferExistsWithDifferentFlags:           "exists_with_different_flags",
	tb.TransferExistsWithDifferentDebitAccountID:  "exists_with_different_debit_account_id",
	tb.TransferExistsWithDifferentCreditAccountID: "exists_with_different_credit_account_id",
	tb.TransferExistsWithDifferentAmount:          "exists_with_different_amount",
	tb.TransferExistsWithDifferentPendingID:       "exists_with_different_pending_id",
	tb.TransferExistsWithDifferentUserData128:     "exists_with_different_user_data_128",
	tb.TransferExistsWithDifferentUserData64:      "exists_with_different_user_data_64",
	tb.TransferExistsWithDifferentUserData32:      "exists_with_different_user_data_32",
	tb.TransferExistsWithDifferentTimeout:         "exists_with_different_timeout",
	tb.TransferExistsWithDifferentCode:            "exists_with_different_code",
	tb.TransferExists:                             "exists",
	tb.TransferExceedsCredits:                     "exceeds_credits",
	tb.TransferExistsWithDifferentLedger:          "exists_with_different_ledger",
	tb.TransferIDAlreadyFailed:                    "id_already_failed",
}

const existsWithDifferent = "exists_with_different_"

func accountStatusName(s CreateAccountStatus) string {
	if n, ok := accountStatusNames[s]; ok {
		return n
	}
	return "status " + strconv.FormatUint(uint64(s), 10)
}

func transferStatusName(s CreateTransferStatus) string {
	if n, ok := transferStatusNames[s]; ok {
		return n
	}
	return "status " + strconv.FormatUint(uint64(s), 10)
}

func transferStatusNamesOf(results []CreateTransferResult) []string {
	names := make([]string, len(results))
	for i, r := range results {
		names[i] = transferStatusName(r.Status)
	}
	return names
}

func unexpected(what string, names []string) error {
	return fmt.Errorf("chobo: TigerBeetle answered %s with %s, which chobo's client does not expect (a bug in the client)", what, strings.Join(names, ", "))
}

func refused(reason string) Result {
	return Result{Outcome: Refused, Reason: reason}
}

// chainOutcome reads a chain's results: the first that is neither created nor linked_event_failed
// decides, by the plan's tables (results.ts).
func (c *client) chainOutcome(what string, chain []chainEntry, results []CreateTransferResult) (Result, error) {
	names := transferStatusNamesOf(results)
	if len(results) != len(chain) {
		return Result{}, unexpected(what, names)
	}
	at := -1
	for i, r := range results {
		if r.Status != tb.TransferCreated && r.Status != tb.TransferLinkedEventFailed {
			at = i
			break
		}
	}
	if at < 0 {
		for _, r := range results {
			if r.Status != tb.TransferCreated {
				return Result{}, unexpected(what, names)
			}
		}
		return Result{Outcome: Done}, nil
	}
	name := names[at]
	switch {
	case name == "exists" && at == 0:
		return Result{Outcome: DoneBefore}, nil
	case name == "exists", strings.HasPrefix(name, existsWithDifferent):
		return refused("key_conflict"), nil
	case name == "exceeds_credits":
		if chain[at].exceedsCredits != "" {
			return refused(chain[at].exceedsCredits), nil
		}
	default:
		if reason, ok := c.def.refusals[name]; ok {
			return refused(reason), nil
		}
	}
	return Result{}, unexpected(what, names)
}

// statusOf is the state the status chain's results say, by the plan's table.
func (c *client) statusOf(results []CreateTransferResult) (HoldState, error) {
	names := transferStatusNamesOf(results)
	if len(names) == 2 {
		for _, row := range c.def.status {
			if names[0] == row.first && names[1] == row.second {
				return row.state, nil
			}
		}
	}
	return "", unexpected("the status chain", names)
}

// overHoldOutcome answers a post over the hold by the hold's state, by the plan's table.
func (c *client) overHoldOutcome(state HoldState) (Result, error) {
	if reason, ok := c.def.overHold[state]; ok {
		return refused(reason), nil
	}
	return Result{}, errors.New("chobo: the hold read before the post is not there any more")
}

// whatText is `stock(sku-2)`, `floor of bin(sku-2)`, `room of bin(sku-2)`, `sink of pcs`.
func (d *planDef) whatText(w accountWhat) string {
	if w.kind == kindSink {
		return "sink of " + d.units[w.unit].name
	}
	name := d.accounts[w.account].name
	if len(w.args) > 0 {
		name += "(" + strings.Join(w.args, ", ") + ")"
	}
	switch w.kind {
	case kindFloor:
		return "floor of " + name
	case kindRoom:
		return "room of " + name
	}
	return name
}

// accountsFailure says why creating accounts did not go as it must: an account that exists with
// other fields means the book's account definition changed (docs/targets.md#changing-a-book).
func (d *planDef) accountsFailure(events []accountEvent, results []CreateAccountResult) error {
	if len(results) != len(events) {
		names := make([]string, len(results))
		for i, r := range results {
			names[i] = accountStatusName(r.Status)
		}
		return unexpected("create_accounts", names)
	}
	for i, r := range results {
		if r.Status == tb.AccountCreated || r.Status == tb.AccountExists {
			continue
		}
		name := d.whatText(events[i].what)
		status := accountStatusName(r.Status)
		if field, ok := strings.CutPrefix(status, existsWithDifferent); ok {
			return fmt.Errorf("chobo: the TigerBeetle account of %s exists with different %s: the book's account definition changed (docs/targets.md#changing-a-book); make a new account kind instead", name, field)
		}
		return unexpected("create_accounts ("+name+")", []string{status})
	}
	return nil
}

// openingsFailure says why sending openings did not go as it must: an opening that exists with
// another amount means the book's bound changed (docs/targets.md#changing-a-book).
func (d *planDef) openingsFailure(openings []Transfer, accounts []accountEvent, results []CreateTransferResult) error {
	if len(results) != len(openings) {
		return unexpected("the openings", transferStatusNamesOf(results))
	}
	for i, r := range results {
		if r.Status == tb.TransferCreated || r.Status == tb.TransferExists {
			continue
		}
		name := "an account"
		for _, a := range accounts {
			if a.event.ID == openings[i].CreditAccountID {
				name = d.whatText(a.what)
			}
		}
		if r.Status == tb.TransferExistsWithDifferentAmount {
			return fmt.Errorf("chobo: the opening of %s exists with another amount: the book's bound changed (docs/targets.md#changing-a-book); make a new account kind instead", name)
		}
		return unexpected("the opening of "+name, []string{transferStatusName(r.Status)})
	}
	return nil
}

// ---------------------------------------------------------------------------------------------
// The steps of one call (targets/chobo/tigerbeetle/client.ts).

func (c *client) createAccounts(ctx context.Context, events []Account) ([]CreateAccountResult, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return c.tigerbeetle.CreateAccounts(events)
}

func (c *client) createTransfers(ctx context.Context, events []Transfer) ([]CreateTransferResult, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if len(events) > c.batcher.limit {
		return nil, fmt.Errorf("chobo: %d transfers in one chain, more than the %d a request takes", len(events), c.batcher.limit)
	}
	return c.batcher.send(events)
}

func transfersOf(chain []chainEntry) []Transfer {
	out := make([]Transfer, len(chain))
	for i, e := range chain {
		out[i] = e.transfer
	}
	return out
}

// write runs a do, hold, post or void with its arguments by parameter (see newCall).
func (c *client) write(ctx context.Context, index int, op string, args ...any) (Result, error) {
	cl, err := c.newCall(index, op, args)
	if err != nil {
		return Result{}, err
	}
	if op == opDo || op == opHold {
		return c.move(ctx, cl)
	}
	return c.settle(ctx, cl)
}

// move sends a do or hold: nothing for the same account on both sides, then the accounts and
// openings not sent before by this book value, then the chain.
func (c *client) move(ctx context.Context, cl *call) (Result, error) {
	if c.sameAccount(cl) {
		return refused("same_account"), nil
	}
	named, allOpenings, chain, err := c.moveChain(cl)
	if err != nil {
		return Result{}, err
	}
	var accounts []accountEvent
	for _, a := range named {
		if !c.isCreated(a.event.ID) {
			accounts = append(accounts, a)
		}
	}
	for start := 0; start < len(accounts); start += maxBatch {
		batch := accounts[start:min(start+maxBatch, len(accounts))]
		events := make([]Account, len(batch))
		ids := make([]Uint128, len(batch))
		for i, a := range batch {
			events[i], ids[i] = a.event, a.event.ID
		}
		results, err := c.createAccounts(ctx, events)
		if err != nil {
			return Result{}, err
		}
		if err := c.def.accountsFailure(batch, results); err != nil {
			return Result{}, err
		}
		c.remember(ids)
	}
	var openings []Transfer
	for _, o := range allOpenings {
		if !c.isCreated(o.ID) {
			openings = append(openings, o)
		}
	}
	for start := 0; start < len(openings); start += maxBatch {
		batch := openings[start:min(start+maxBatch, len(openings))]
		results, err := c.createTransfers(ctx, batch)
		if err != nil {
			return Result{}, err
		}
		if err := c.def.openingsFailure(batch, named, results); err != nil {
			return Result{}, err
		}
		ids := make([]Uint128, len(batch))
		for i, o := range batch {
			ids[i] = o.ID
		}
		c.remember(ids)
	}
	results, err := c.createTransfers(ctx, transfersOf(chain))
	if err != nil {
		return Result{}, err
	}
	return c.chainOutcome(cl.t.name+"."+cl.op, chain, results)
}

// settle sends a post or void: the hold's transfers are read first; nothing there is no_such_hold
// and nothing more is sent; a post over the hold sends the status chain and answers by the state.
func (c *client) settle(ctx context.Context, cl *call) (Result, error) {
	lookups := make([]Uint128, len(cl.t.lookups))
	for i, position := range cl.t.lookups {
		lookups[i] = c.transferID(cl.t, opHold, cl.key(), position)
	}
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}
	found, err := c.tigerbeetle.LookupTransfers(lookups)
	if err != nil {
		return Result{}, err
	}
	held, ok, err := heldAmounts(lookups, found)
	if err != nil {
		return Result{}, err
	}
	if !ok {
		return refused("no_such_hold"), nil
	}
	if cl.isOverHold(held) {
		state, err := c.readStatus(ctx, cl)
		if err != nil {
			return Result{}, err
		}
		return c.overHoldOutcome(state)
	}
	chain, err := c.settleChain(cl, held)
	if err != nil {
		return Result{}, err
	}
	results, err := c.createTransfers(ctx, transfersOf(chain))
	if err != nil {
		return Result{}, err
	}
	return c.chainOutcome(cl.t.name+"."+cl.op, chain, results)
}

// readStatus sends the status chain of the call's key: a void of the hold's first transfer linked
// to a transfer that is always refused, so nothing is written (plan.ts).
func (c *client) readStatus(ctx context.Context, cl *call) (HoldState, error) {
	chain, err := c.fill(cl, "status", "[]", nil, func(w accountWhat) Uint128 { return c.eventOf(w).ID })
	if err != nil {
		return "", err
	}
	results, err := c.createTransfers(ctx, transfersOf(chain))
	if err != nil {
		return "", err
	}
	return c.statusOf(results)
}

// status reads the state of the hold of a key, given as the post's arguments (see newCall).
func (c *client) status(ctx context.Context, index int, args ...any) (HoldState, error) {
	cl, err := c.newCall(index, "status", args)
	if err != nil {
		return "", err
	}
	return c.readStatus(ctx, cl)
}

// balance reads an account: posted is credits − debits, held in the pending credits, held out the
// pending debits. An account never written to reads 0; a number outside 64 bits is an error
// (TigerBeetle lets a balance leave 64 bits, so reading it fails:
// docs/targets.md#what-the-two-targets-share).
func (c *client) balance(ctx context.Context, account int, args ...string) (Balance, error) {
	if err := checkString("tenant", c.tenant); err != nil {
		return Balance{}, err
	}
	for i, a := range args {
		if err := checkString(fmt.Sprintf("argument %d of %s", i+1, c.def.accounts[account].name), a); err != nil {
			return Balance{}, err
		}
	}
	if err := ctx.Err(); err != nil {
		return Balance{}, err
	}
	id := c.accountID(account, args)
	found, err := c.tigerbeetle.LookupAccounts([]Uint128{id})
	if err != nil {
		return Balance{}, err
	}
	for _, a := range found {
		if a.ID != id {
			continue
		}
		posted := new(big.Int).Sub(a.CreditsPosted.BigInt(), a.DebitsPosted.BigInt())
		numbers := [3]*big.Int{posted, a.CreditsPending.BigInt(), a.DebitsPending.BigInt()}
		for _, n := range numbers {
			if !n.IsInt64() {
				name := c.def.whatText(accountWhat{kind: kindAccount, account: account, args: args})
				return Balance{}, fmt.Errorf("chobo: a balance of %s is %s, outside 64 bits", name, n)
			}
		}
		return Balance{Posted: posted.Int64(), HeldIn: numbers[1].Int64(), HeldOut: numbers[2].Int64()}, nil
	}
	return Balance{}, nil
}
