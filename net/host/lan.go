package host

import (
	"context"
	"time"

	"rockstep/net/lan"
)

// lanInfo is how a LAN list shows the host's default room.
func lanInfo(id, hostName string, st Stats) lan.Info {
	return lan.Info{ID: id, Name: st.Name, Host: hostName, Players: st.RoomPlayers, Max: st.RoomMax, State: st.RoomState.String()}
}

// AdvertiseLAN publishes the host's default room on the LAN, as reachable
// on port, until ctx ends, updating the listing as players come and go and
// games start and end. An error means the game cannot be advertised;
// players can still join by address.
func (h *Host) AdvertiseLAN(ctx context.Context, port uint16, hostName string) error {
	id := lan.NewGameID()
	info := lanInfo(id, hostName, h.Stats())
	adv, err := lan.Advertise(info, int(port))
	if err != nil {
		return err
	}
	h.log.Info("advertising on the LAN", "service", lan.Service, "id", id)
	go func() {
		defer adv.Close()
		t := time.NewTicker(250 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				if next := lanInfo(id, hostName, h.Stats()); next != info {
					info = next
					adv.Update(info)
				}
			}
		}
	}()
	return nil
}
