// Package chat holds the rules of the table's messages that need no store:
// who a message is from (its speaker, signed by the server where it knows
// better than the client), whom a private message reaches (/w and /gmroll,
// the heads of a whisper), a roll a client sent already rolled, and each
// device's budget of messages. The engine stores and publishes messages
// through these rules.
package chat
