package web

// sseFrame is one server-sent event: its name and its data, a data line
// for each line of data. A carriage return, which would end a line too,
// is sent as the character reference it may be written as in HTML text
// and attribute values alike (JSON never holds one unescaped). Every
// stream of the server writes its events through it.
func sseFrame(event string, data []byte) []byte {
	b := append([]byte("event: "+event+"\n"), "data: "...)
	for _, c := range data {
		switch c {
		case '\n':
			b = append(b, "\ndata: "...)
		case '\r':
			b = append(b, "&#13;"...)
		default:
			b = append(b, c)
		}
	}
	return append(b, "\n\n"...)
}
