package ui

import (
	"testing"

	"rockstep/net/portmap"
)

// TestGuestOptionsMapTheStandby: a guest window asks for its standby
// port's mapping through the same setting as Host (startPortmap): with
// port mapping off (Settings, or -portmap=false) the mapper says so and
// never asks the router; with it on, the options carry a mapper (not
// called here: it would ask the machine's real router).
func TestGuestOptionsMapTheStandby(t *testing.T) {
	off := netConfig{portmap: false}.guestOptions()
	if !off.Standby || off.StandbyMap == nil {
		t.Fatalf("a guest window: Standby %v, StandbyMap set %v; want a standby and its mapping asked for", off.Standby, off.StandbyMap != nil)
	}
	m := off.StandbyMap(43210)
	defer m.Close()
	if st := m.Status(); st.Verdict != portmap.Off || st.Internal != 43210 {
		t.Fatalf("port mapping off: the standby's mapping says %+v; want Off for port 43210", st)
	}
	if on := (netConfig{portmap: true}).guestOptions(); on.StandbyMap == nil {
		t.Fatal("port mapping on: no StandbyMap")
	}
}
