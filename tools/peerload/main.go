// Command peerload drives the peer server of Rockstep's load test,
// byebyebruce/lockstepserver (Go, KCP, frame sync), with the flow of a
// Rockstep bot: rooms of -per-room players created through its web API,
// each player connecting over KCP, joining, readying and then sending 30
// inputs a second (and a heartbeat a second) while it counts the frames the
// server sends and how late each arrives against the server's 30 frames a
// second. It is a measuring tool, not part of the game; it speaks only the
// few messages it needs, in the peer's framing (a big-endian uint16 data
// length, a message id byte, a protobuf body).
//
//	peerload -web 127.0.0.1:7795 -udp 127.0.0.1:7796 -clients 1000 -duration 60s
package main

import (
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/xtaci/kcp-go/v5"
)

// The peer's message ids (its pb/message.proto).
const (
	msgConnect   = 1
	msgHeartbeat = 2
	msgJoinRoom  = 10
	msgReady     = 30
	msgStart     = 40
	msgFrame     = 50
	msgInput     = 60
	msgClose     = 100
)

// frameRate is the peer room's frames a second (its logic/room Frequency).
const frameRate = 30

// maxBody bounds a message body: the length field's limit (the peer sends
// frame messages longer than its own MaxPacketLen of 1,024 bytes).
const maxBody = 65535

// lateBuckets are the lateness histogram's bounds, in milliseconds.
var lateBuckets = []int{1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000}

func main() {
	web := flag.String("web", "127.0.0.1:7795", "the peer's web API `ADDR` (rooms are created there)")
	udp := flag.String("udp", "127.0.0.1:7796", "the peer's KCP `ADDR`")
	clients := flag.Int("clients", 1000, "players")
	perRoom := flag.Int("per-room", 4, "players a room")
	duration := flag.Duration("duration", time.Minute, "how long the players play")
	hz := flag.Int("hz", 30, "inputs a second each player sends")
	flag.Parse()
	if *clients < 1 || *perRoom < 1 || *hz < 1 || *hz > 1000 {
		log.Fatal("peerload: -clients, -per-room and -hz must be positive (-hz at most 1000)")
	}
	s := run(*web, *udp, *clients, *perRoom, *duration, time.Second/time.Duration(*hz))
	fmt.Println(s)
	if s.errors > 0 {
		os.Exit(1)
	}
}

// summary is what a run measured.
type summary struct {
	clients, rooms, started, errors int
	frames                          uint64        // frames received, all players together
	playing                         time.Duration // all players' time from their start to the end
	late                            []uint64      // frames by lateness bucket (the last: beyond)
	firstErr                        error
}

func (s summary) String() string {
	fps := 0.0
	if s.playing > 0 {
		fps = float64(s.frames) / s.playing.Seconds()
	}
	return fmt.Sprintf("peer clients=%d rooms=%d started=%d frames_per_s=%.1f of %d late_ms_p99=%s errors=%d%s",
		s.clients, s.rooms, s.started, fps, frameRate, quantile(s.late, 0.99), s.errors, errText(s.firstErr))
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return " first_error=" + strconv.Quote(err.Error())
}

// quantile returns the bucket bound under which fraction q of frames
// arrived.
func quantile(h []uint64, q float64) string {
	var total uint64
	for _, n := range h {
		total += n
	}
	if total == 0 {
		return "none"
	}
	var seen uint64
	for i, n := range h {
		if seen += n; float64(seen) >= q*float64(total) {
			if i < len(lateBuckets) {
				return strconv.Itoa(lateBuckets[i])
			}
			return ">" + strconv.Itoa(lateBuckets[len(lateBuckets)-1])
		}
	}
	return "none"
}

func run(web, udp string, clients, perRoom int, duration, every time.Duration) summary {
	s := summary{clients: clients, late: make([]uint64, len(lateBuckets)+1)}
	var mu sync.Mutex
	fail := func(err error) {
		mu.Lock()
		defer mu.Unlock()
		s.errors++
		if s.firstErr == nil {
			s.firstErr = err
		}
	}
	end := time.Now().Add(duration + 10*time.Second) // time to connect and start
	var wg sync.WaitGroup
	for first, room := 0, 1; first < clients; first, room = first+perRoom, room+1 {
		ids := make([]string, 0, perRoom)
		for i := first; i < min(first+perRoom, clients); i++ {
			ids = append(ids, strconv.Itoa(i+1))
		}
		if err := createRoom(web, room, ids); err != nil {
			fail(fmt.Errorf("room %d: %w", room, err))
			continue
		}
		s.rooms++
		for _, id := range ids {
			pid, _ := strconv.ParseUint(id, 10, 64)
			wg.Add(1)
			go func() {
				defer wg.Done()
				p := player{id: pid, room: uint64(room), late: make([]uint64, len(lateBuckets)+1)}
				err := p.play(udp, every, end, duration)
				mu.Lock()
				defer mu.Unlock()
				if p.started {
					s.started++
					s.frames += p.frames
					s.playing += p.playing
				}
				for i, n := range p.late {
					s.late[i] += n
				}
				if err != nil {
					s.errors++
					if s.firstErr == nil {
						s.firstErr = fmt.Errorf("player %d: %w", pid, err)
					}
				}
			}()
		}
	}
	wg.Wait()
	return s
}

// createRoom asks the peer's web API for a room with these players.
func createRoom(web string, room int, ids []string) error {
	c := http.Client{Timeout: 10 * time.Second}
	resp, err := c.Get("http://" + web + "/create?room=" + strconv.Itoa(room) + "&member=" + strings.Join(ids, ","))
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 1024))
	if !strings.HasPrefix(string(body), "room.ID=") {
		return fmt.Errorf("create: %q", body)
	}
	return nil
}

// player is one connection and what it measured.
type player struct {
	id, room uint64
	started  bool
	frames   uint64        // distinct frames received
	playing  time.Duration // from the Start message to the end
	late     []uint64
}

func (p *player) play(addr string, every time.Duration, end time.Time, duration time.Duration) error {
	conn, err := kcp.DialWithOptions(addr, nil, 0, 0)
	if err != nil {
		return err
	}
	defer conn.Close()
	// As the peer's server tunes its side.
	conn.SetNoDelay(1, 10, 2, 1)
	conn.SetStreamMode(true)
	conn.SetWindowSize(4096, 4096)
	conn.SetACKNoDelay(true)
	_ = conn.SetDeadline(end.Add(5 * time.Second))

	var wmu sync.Mutex
	send := func(id byte, body []byte) error {
		b := make([]byte, 3, 3+len(body))
		binary.BigEndian.PutUint16(b, uint16(len(body)))
		b[2] = id
		wmu.Lock()
		defer wmu.Unlock()
		_, err := conn.Write(append(b, body...))
		return err
	}
	if err := send(msgConnect, appendVarintField(appendVarintField(nil, 1, p.id), 2, p.room)); err != nil {
		return err
	}

	startc := make(chan time.Time, 1)
	readErr := make(chan error, 1)
	readDone := make(chan struct{})
	var frames uint64
	var startAt time.Time
	var seen = map[uint32]bool{}
	defer func() {
		conn.Close()
		<-readDone
		p.frames = frames
	}()
	go func() {
		defer close(readDone)
		readErr <- p.read(conn, send, startc, func(f uint32, at time.Time) {
			if seen[f] || startAt.IsZero() {
				return
			}
			seen[f] = true
			frames++
			due := startAt.Add(time.Duration(f) * time.Second / frameRate)
			ms := int(at.Sub(due).Milliseconds())
			i := 0
			for i < len(lateBuckets) && ms > lateBuckets[i] {
				i++
			}
			p.late[i]++
		}, &startAt)
	}()

	select {
	case at := <-startc:
		p.started = true
		stop := at.Add(duration)
		tick := time.NewTicker(every)
		defer tick.Stop()
		beat := time.NewTicker(time.Second)
		defer beat.Stop()
		var sid int32
		for now := time.Now(); now.Before(stop); now = time.Now() {
			select {
			case err := <-readErr:
				return fmt.Errorf("read: %w", err)
			case <-beat.C:
				if err := send(msgHeartbeat, nil); err != nil {
					return err
				}
			case <-tick.C:
				sid++
				if err := send(msgInput, appendVarintField(nil, 1, uint64(sid))); err != nil {
					return err
				}
			}
		}
		p.playing = time.Since(at)
		return nil
	case err := <-readErr:
		return fmt.Errorf("before the start: %w", err)
	case <-time.After(time.Until(end)):
		return errors.New("the game never started")
	}
}

// read handles what the server sends: it joins and readies after the
// Connect answer, notes the Start, and hands on every frame id.
func (p *player) read(r io.Reader, send func(byte, []byte) error, startc chan<- time.Time, frame func(uint32, time.Time), startAt *time.Time) error {
	head := make([]byte, 3)
	body := make([]byte, maxBody)
	for {
		if _, err := io.ReadFull(r, head); err != nil {
			return err
		}
		n := int(binary.BigEndian.Uint16(head))
		if n > maxBody {
			return fmt.Errorf("message of %d bytes", n)
		}
		if _, err := io.ReadFull(r, body[:n]); err != nil {
			return err
		}
		now := time.Now()
		switch head[2] {
		case msgConnect:
			if code := varintField(body[:n], 1); code != 0 {
				return fmt.Errorf("connect refused: error code %d", code)
			}
			if err := send(msgJoinRoom, nil); err != nil {
				return err
			}
			if err := send(msgReady, nil); err != nil {
				return err
			}
		case msgStart:
			if startAt.IsZero() {
				*startAt = now
				startc <- now
			}
		case msgFrame:
			forEachFrame(body[:n], func(id uint32) { frame(id, now) })
		case msgClose:
			return errors.New("the server closed the room")
		}
	}
}

// appendVarintField appends protobuf field num as a varint.
func appendVarintField(b []byte, num int, v uint64) []byte {
	b = binary.AppendUvarint(b, uint64(num)<<3)
	return binary.AppendUvarint(b, v)
}

// fields calls f for every field of a protobuf message: its number, wire
// type, varint value (wire type 0) or bytes (wire type 2). It stops at the
// first field it cannot read.
func fields(b []byte, f func(num int, wt int, v uint64, sub []byte)) {
	for len(b) > 0 {
		key, n := binary.Uvarint(b)
		if n <= 0 {
			return
		}
		b = b[n:]
		num, wt := int(key>>3), int(key&7)
		switch wt {
		case 0:
			v, n := binary.Uvarint(b)
			if n <= 0 {
				return
			}
			b = b[n:]
			f(num, wt, v, nil)
		case 2:
			l, n := binary.Uvarint(b)
			if n <= 0 || l > uint64(len(b)-n) {
				return
			}
			f(num, wt, 0, b[n:n+int(l)])
			b = b[n+int(l):]
		case 5:
			if len(b) < 4 {
				return
			}
			b = b[4:]
		case 1:
			if len(b) < 8 {
				return
			}
			b = b[8:]
		default:
			return
		}
	}
}

// varintField returns varint field num of a message (0 if absent).
func varintField(b []byte, num int) uint64 {
	var out uint64
	fields(b, func(n, wt int, v uint64, _ []byte) {
		if n == num && wt == 0 {
			out = v
		}
	})
	return out
}

// forEachFrame calls f with the id of every FrameData in an S2C_FrameMsg.
func forEachFrame(b []byte, f func(uint32)) {
	fields(b, func(n, wt int, _ uint64, sub []byte) {
		if n == 1 && wt == 2 {
			f(uint32(varintField(sub, 1)))
		}
	})
}
