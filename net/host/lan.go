package host

import (
	"context"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"time"

	"rockstep/internal/userdir"
	"rockstep/net/lan"
	"rockstep/net/transport"
)

// lanInfo is how a LAN list shows the host's default room.
func lanInfo(id, hostName, fp string, st Stats) lan.Info {
	return lan.Info{ID: id, Name: st.Name, Host: hostName, Players: st.RoomPlayers, Max: st.RoomMax, State: st.RoomState.String(), Fingerprint: fp}
}

// AdvertiseLAN publishes the host's default room on the LAN, as reachable
// on srv's port, with the fingerprint of srv's host key, until ctx ends,
// updating the listing as players come and go and games start and end. An
// error means the game cannot be advertised; players can still join by
// address.
//
// The listing's id is the host's own, or the one of the host it took the
// game over from (NewResumed): a LAN list shows a handed-over game move to
// its new address.
func (h *Host) AdvertiseLAN(ctx context.Context, srv *transport.Server, hostName string) error {
	id := h.lanID
	fp := srv.HostKey().Fingerprint()
	info := lanInfo(id, hostName, fp, h.Stats())
	adv, err := lan.AdvertiseOn(info, srv.Addr())
	if err != nil {
		return err
	}
	h.advertised.Store(true)
	h.log.Info("advertising on the LAN", "service", lan.Service, "id", id, "host_key", transport.FormatFingerprint(fp))
	go func() {
		defer adv.Close()
		t := time.NewTicker(250 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				if next := lanInfo(id, hostName, fp, h.Stats()); next != info {
					info = next
					adv.Update(info)
				}
			}
		}
	}()
	return nil
}

// ListingID returns the id the host's game is (or would be) listed under
// on the LAN.
func (h *Host) ListingID() string { return h.lanID }

// listingBytes is a listing id as the wire carries it (wire.Successors.
// Listing): zero unless id is 16 hex digits, as lan.NewGameID makes.
func listingBytes(id string) [8]byte {
	var b [8]byte
	if len(id) != 2*len(b) {
		return [8]byte{}
	}
	if _, err := hex.Decode(b[:], []byte(id)); err != nil {
		return [8]byte{}
	}
	return b
}

// LoadHostKey returns the host key kept in dir, Rockstep's folder (""
// for userdir.Dir()), in userdir.HostKeyFile, making and keeping one on
// first use: a host's identity, and the fingerprint LAN lists show for it,
// stay the same from one run to the next.
func LoadHostKey(dir string) (*transport.HostKey, error) {
	path := filepath.Join(dir, userdir.HostKeyFile)
	if dir == "" {
		var err error
		if path, err = userdir.HostKeyPath(); err != nil {
			return nil, err
		}
	}
	k, _, err := transport.LoadOrCreateHostKey(path)
	if err != nil {
		return nil, fmt.Errorf("host key: %w", err)
	}
	return k, nil
}
