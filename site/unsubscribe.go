package site

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"strconv"
)

// UnsubscribeKey names the server key an e-mail's link that stops the
// e-mails is signed with.
const UnsubscribeKey = "unsubscribe-link"

// UnsubscribePath is the link that stops a member's e-mails without a
// login: their id and its HMAC with the server's key.
func UnsubscribePath(key []byte, userID int64) string {
	return "/unsubscribe?u=" + strconv.FormatInt(userID, 10) + "&t=" + UnsubscribeToken(key, userID)
}

// UnsubscribeToken is the HMAC an unsubscribe link carries for userID.
func UnsubscribeToken(key []byte, userID int64) string {
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte("unsubscribe:" + strconv.FormatInt(userID, 10)))
	return hex.EncodeToString(mac.Sum(nil))
}

// UnsubscribeValid reports whether token is userID's with key.
func UnsubscribeValid(key []byte, userID int64, token string) bool {
	return userID > 0 && hmac.Equal([]byte(UnsubscribeToken(key, userID)), []byte(token))
}
