package seats

// SeatHeld reports whether a seat token's hash (SeatHash) still holds a
// seat: the hub asks it after seatsUpdated, to tell a connection that
// lost its seat.
func (s *SeatsRoom) SeatHeld(hash string) bool { return s.HeldSeatOf(hash) != nil }

// SeatHeldID returns the id of the character whose seat a token hash
// holds, "" when none.
func (s *SeatsRoom) SeatHeldID(hash string) string {
	if seat := s.HeldSeatOf(hash); seat != nil {
		return seat.EntityID
	}
	return ""
}
