// The payload codec of every dandori Temporal Go package whose flow writes `history encrypted`
// (docs/targets.md#the-payload-codec-of-history-encrypted): AES-256-GCM with keys the user's code
// supplies, on Go's crypto/aes and crypto/cipher, in the wire format the TypeScript package's
// `codec.ts` and the Python package's `codec.py` read and write alike. `dandori build --target
// temporal-go` copies it byte for byte but for its package clause as `codec.go`. The client, the
// worker and Replay take it; the workflow never calls it (it reads a random number).

package dandori

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"fmt"
	"strconv"

	commonpb "go.temporal.io/api/common/v1"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/temporal"
	"google.golang.org/protobuf/proto"
)

// ddCodecEncoding is the `encoding` of every payload the codec writes: the codec and the version of its wire format.
const ddCodecEncoding = "binary/dandori-aes-256-gcm-v1"

// ddCodecKeyID is the metadata key that names the key a payload is encrypted with.
const ddCodecKeyID = "encryption-key-id"

// CodecKeyBytes is a key's length in bytes: AES-256.
const CodecKeyBytes = 32

// ddCodecNonceBytes is the nonce before the ciphertext: GCM's 96 bits, random for every payload.
const ddCodecNonceBytes = 12

// ddCodecTagBytes is the authentication tag after the ciphertext: GCM's full 128 bits.
const ddCodecTagBytes = 16

// ddCodecMaxKeyIDBytes is the longest key id in UTF-8 bytes: it is metadata in clear, which every
// reader of the history sees.
const ddCodecMaxKeyIDBytes = 200

// CodecKey is a key and its id. The id is written in clear beside every payload: never a secret.
type CodecKey struct {
	ID string
	// Key is CodecKeyBytes bytes, from a key store the user's code reads; never written into a generated file.
	Key []byte
}

// CodecError is why a payload was refused: not this codec's, a key not given, or one that fails authentication.
type CodecError struct {
	Reason string
}

func (e *CodecError) Error() string {
	return "dandori codec: " + e.Reason
}

// AesGcmCodec is AES-256-GCM over every payload: each is written as the protobuf of the payload it
// replaces, encrypted with a random nonce under the key it was made to encrypt with; reading takes
// that key or one of the older keys given (while their payloads are still read) by the payload's
// key id, and refuses every payload that is not this codec's or does not authenticate.
type AesGcmCodec struct {
	keys        map[string]cipher.AEAD
	encryptWith string
}

// NewAesGcmCodec is the codec that encrypts with encryptWith and decrypts with it or with one of
// decryptAlso; an error when a key id is empty or longer than ddCodecMaxKeyIDBytes, a key is not
// CodecKeyBytes bytes, or an id is given twice.
func NewAesGcmCodec(encryptWith CodecKey, decryptAlso ...CodecKey) (*AesGcmCodec, error) {
	c := &AesGcmCodec{keys: map[string]cipher.AEAD{}, encryptWith: encryptWith.ID}
	for _, k := range append([]CodecKey{encryptWith}, decryptAlso...) {
		if len(k.ID) == 0 || len(k.ID) > ddCodecMaxKeyIDBytes {
			return nil, fmt.Errorf("dandori codec: a key id has 1 to %d bytes, not %d", ddCodecMaxKeyIDBytes, len(k.ID))
		}
		if len(k.Key) != CodecKeyBytes {
			return nil, fmt.Errorf("dandori codec: the key %s is not %d bytes", strconv.Quote(k.ID), CodecKeyBytes)
		}
		if _, twice := c.keys[k.ID]; twice {
			return nil, fmt.Errorf("dandori codec: the key id %s is given twice", strconv.Quote(k.ID))
		}
		block, err := aes.NewCipher(k.Key)
		if err != nil {
			return nil, err
		}
		aead, err := cipher.NewGCMWithNonceSize(block, ddCodecNonceBytes)
		if err != nil {
			return nil, err
		}
		c.keys[k.ID] = aead
	}
	return c, nil
}

// ddCodecAuthenticated is the codec's name, a zero byte and the key id: the data GCM authenticates beside the ciphertext.
func ddCodecAuthenticated(id string) []byte {
	return append(append([]byte(ddCodecEncoding), 0), id...)
}

// Encode encrypts every payload with a nonce of its own.
func (c *AesGcmCodec) Encode(payloads []*commonpb.Payload) ([]*commonpb.Payload, error) {
	out := make([]*commonpb.Payload, len(payloads))
	for i, p := range payloads {
		plain, err := proto.Marshal(p)
		if err != nil {
			return nil, err
		}
		nonce := make([]byte, ddCodecNonceBytes)
		if _, err := rand.Read(nonce); err != nil {
			return nil, err
		}
		sealed := c.keys[c.encryptWith].Seal(nonce, nonce, plain, ddCodecAuthenticated(c.encryptWith))
		metadata := map[string][]byte{"encoding": []byte(ddCodecEncoding), ddCodecKeyID: []byte(c.encryptWith)}
		out[i] = &commonpb.Payload{Metadata: metadata, Data: sealed}
	}
	return out, nil
}

// Decode decrypts every payload, or refuses with a *CodecError.
func (c *AesGcmCodec) Decode(payloads []*commonpb.Payload) ([]*commonpb.Payload, error) {
	out := make([]*commonpb.Payload, len(payloads))
	for i, p := range payloads {
		encoding := string(p.GetMetadata()["encoding"])
		if encoding != ddCodecEncoding {
			return nil, &CodecError{Reason: "a payload of encoding " + strconv.Quote(encoding) + " is not encrypted with " + ddCodecEncoding}
		}
		id := string(p.GetMetadata()[ddCodecKeyID])
		key, ok := c.keys[id]
		if !ok {
			return nil, &CodecError{Reason: "a payload is encrypted with the key " + strconv.Quote(id) + ", not given"}
		}
		data := p.GetData()
		if len(data) < ddCodecNonceBytes+ddCodecTagBytes {
			return nil, &CodecError{Reason: "a payload is too short to be encrypted"}
		}
		plain, err := key.Open(nil, data[:ddCodecNonceBytes], data[ddCodecNonceBytes:], ddCodecAuthenticated(id))
		if err != nil {
			return nil, &CodecError{Reason: "a payload encrypted with the key " + strconv.Quote(id) + " does not authenticate"}
		}
		inner := &commonpb.Payload{}
		if err := proto.Unmarshal(plain, inner); err != nil {
			return nil, &CodecError{Reason: "a payload encrypted with the key " + strconv.Quote(id) + " holds no payload: " + err.Error()}
		}
		out[i] = inner
	}
	return out, nil
}

// ddEncrypted is the data converter of the client, the worker and Replay of an encrypted flow
// (every payload through codec), and its failure converter, which keeps a failure's message and
// stack trace in its encoded attributes (a payload codec encrypts) rather than as text in the history.
func ddEncrypted(codec converter.PayloadCodec) (converter.DataConverter, converter.FailureConverter) {
	data := converter.NewCodecDataConverter(converter.GetDefaultDataConverter(), codec)
	failures := temporal.NewDefaultFailureConverter(temporal.DefaultFailureConverterOptions{DataConverter: data, EncodeCommonAttributes: true})
	return data, failures
}
