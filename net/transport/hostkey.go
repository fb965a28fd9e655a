package transport

import (
	"crypto/ed25519"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"encoding/hex"
	"encoding/pem"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// HostKey is a server's long-term identity: an Ed25519 key pair. The
// server signs every handshake with it; a client that knows the key's
// fingerprint (from the LAN listing, or told by the host's player) can
// check that it reached that host and no other. A host keeps its key
// between runs (LoadOrCreateHostKey), so its fingerprint stays the same.
type HostKey struct {
	priv ed25519.PrivateKey
	pub  ed25519.PublicKey
	fp   string
}

// NewHostKey returns a fresh random host key.
func NewHostKey() (*HostKey, error) {
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("new host key: %w", err)
	}
	return &HostKey{priv: priv, pub: pub, fp: Fingerprint(pub)}, nil
}

// Public returns the public half of the key.
func (k *HostKey) Public() ed25519.PublicKey { return k.pub }

// Fingerprint returns the key's fingerprint (see Fingerprint).
func (k *HostKey) Fingerprint() string { return k.fp }

// FingerprintLen is the length of a fingerprint, in hex digits.
const FingerprintLen = 32

// Fingerprint returns the fingerprint of an Ed25519 public key: the first
// 16 bytes of its SHA-256, as 32 lowercase hex digits.
func Fingerprint(pub []byte) string {
	sum := sha256.Sum256(pub)
	return hex.EncodeToString(sum[:FingerprintLen/2])
}

// ValidFingerprint reports whether s has the form of a fingerprint.
func ValidFingerprint(s string) bool {
	if len(s) != FingerprintLen {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// MinPinLen is the fewest hex digits of a fingerprint that pin a host key
// (Config.HostFingerprint): 64 bits, which an invite code carries; finding
// another key with the same first 64 bits takes about 2⁶⁴ tries.
const MinPinLen = 16

// ValidPin reports whether s is a fingerprint or its first MinPinLen or
// more hex digits.
func ValidPin(s string) bool {
	return len(s) >= MinPinLen && len(s) <= FingerprintLen && ValidFingerprint(s+strings.Repeat("0", FingerprintLen-len(s)))
}

// FormatFingerprint groups a fingerprint for people to read and compare:
// "1a2b 3c4d 5e6f …", four digits a group.
func FormatFingerprint(fp string) string {
	var b strings.Builder
	for i := 0; i < len(fp); i += 4 {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(fp[i:min(i+4, len(fp))])
	}
	return b.String()
}

// hostKeyPEM is the PEM block type of a host key file: the private key in
// PKCS #8, as openssl writes it.
const hostKeyPEM = "PRIVATE KEY"

// LoadHostKey reads the host key kept at path.
func LoadHostKey(path string) (*HostKey, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("host key: %w", err)
	}
	block, _ := pem.Decode(data)
	if block == nil || block.Type != hostKeyPEM {
		return nil, fmt.Errorf("host key %s: no %q PEM block", path, hostKeyPEM)
	}
	key, err := x509.ParsePKCS8PrivateKey(block.Bytes)
	if err != nil {
		return nil, fmt.Errorf("host key %s: %w", path, err)
	}
	priv, ok := key.(ed25519.PrivateKey)
	if !ok {
		return nil, fmt.Errorf("host key %s: a %T, want an Ed25519 key", path, key)
	}
	pub := priv.Public().(ed25519.PublicKey)
	return &HostKey{priv: priv, pub: pub, fp: Fingerprint(pub)}, nil
}

// Save writes the key to path (owner read and write only), creating its
// folder; it never replaces an existing file.
func (k *HostKey) Save(path string) error {
	der, err := x509.MarshalPKCS8PrivateKey(k.priv)
	if err != nil {
		return fmt.Errorf("host key %s: %w", path, err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("host key: %w", err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return fmt.Errorf("host key: %w", err)
	}
	err = pem.Encode(f, &pem.Block{Type: hostKeyPEM, Bytes: der})
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path)
		return fmt.Errorf("host key %s: %w", path, err)
	}
	return nil
}

// LoadOrCreateHostKey reads the host key at path, or, if there is no file
// there, makes one and keeps it there (created is then true). A file that
// exists but is not a host key is an error: the host's identity never
// changes behind its players' backs.
func LoadOrCreateHostKey(path string) (k *HostKey, created bool, err error) {
	k, err = LoadHostKey(path)
	if err == nil || !errors.Is(err, fs.ErrNotExist) {
		return k, false, err
	}
	if k, err = NewHostKey(); err != nil {
		return nil, false, err
	}
	if err := k.Save(path); err != nil {
		return nil, false, err
	}
	return k, true, nil
}
