package transport

import "time"

// inFlight is one packet on its way: due is its delivery time, seq the order
// in which it entered its schedule, which breaks ties between equal due times.
type inFlight struct {
	due  time.Duration
	seq  uint64
	data []byte
	link *Link
}

// schedule is a min-heap of packets ordered by (due, seq). It is written out
// rather than built on container/heap to avoid boxing every packet in an
// interface; the order it yields never depends on how the heap is laid out,
// because no two packets share a seq.
type schedule struct {
	items []inFlight
	next  uint64 // seq of the next packet pushed
}

func (s *schedule) less(i, j int) bool {
	a, b := &s.items[i], &s.items[j]
	if a.due != b.due {
		return a.due < b.due
	}
	return a.seq < b.seq
}

func (s *schedule) push(p inFlight) {
	p.seq = s.next
	s.next++
	s.items = append(s.items, p)
	for i := len(s.items) - 1; i > 0; {
		parent := (i - 1) / 2
		if !s.less(i, parent) {
			break
		}
		s.items[i], s.items[parent] = s.items[parent], s.items[i]
		i = parent
	}
}

// peek returns the earliest packet without removing it.
func (s *schedule) peek() (inFlight, bool) {
	if len(s.items) == 0 {
		return inFlight{}, false
	}
	return s.items[0], true
}

// pop removes and returns the earliest packet; the heap must not be empty.
func (s *schedule) pop() inFlight {
	top := s.items[0]
	last := len(s.items) - 1
	s.items[0] = s.items[last]
	s.items[last] = inFlight{} // drop references so delivered packets can be collected
	s.items = s.items[:last]
	for i := 0; ; {
		smallest, l, r := i, 2*i+1, 2*i+2
		if l < last && s.less(l, smallest) {
			smallest = l
		}
		if r < last && s.less(r, smallest) {
			smallest = r
		}
		if smallest == i {
			break
		}
		s.items[i], s.items[smallest] = s.items[smallest], s.items[i]
		i = smallest
	}
	return top
}
