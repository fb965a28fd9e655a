package room

import (
	"time"

	"rockstep/net/wire"
)

// outFrame is a queued frame: arena[start:end] for conn.
type outFrame struct {
	conn       ConnID
	start, end int
}

// maxQueued bounds the frames queued between two Flushes.
const maxQueued = 8192

func (r *Room) send(conn ConnID, m wire.Message) {
	if len(r.out) >= maxQueued {
		return
	}
	start := len(r.arena)
	b, err := wire.Append(r.arena, m)
	if err != nil {
		return // a message the room built breaks a limit: a bug, never sent
	}
	r.arena = b
	r.out = append(r.out, outFrame{conn: conn, start: start, end: len(b)})
}

func (r *Room) sendMaster(conn ConnID, p *wire.MasterPacket) {
	if len(r.out) >= maxQueued {
		return
	}
	start := len(r.arena)
	b, err := p.AppendFrame(r.arena)
	if err != nil {
		return
	}
	r.arena = b
	r.out = append(r.out, outFrame{conn: conn, start: start, end: len(b)})
}

// Flush hands every queued frame to send, in order, and empties the queue.
// The frame slice is valid only during the call: send must copy it or
// write it out before returning.
func (r *Room) Flush(send func(conn ConnID, frame []byte)) {
	for _, f := range r.out {
		fr := r.arena[f.start:f.end]
		r.stats.FramesOut++
		r.stats.BytesOut += uint64(len(fr))
		send(f.conn, fr)
	}
	r.out = r.out[:0]
	r.arena = r.arena[:0]
}

// Pending returns how many frames are queued.
func (r *Room) Pending() int { return len(r.out) }

// Now returns the latest time the room has been told.
func (r *Room) Now() time.Duration { return r.now }
