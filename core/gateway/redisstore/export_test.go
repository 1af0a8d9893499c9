package redisstore

// InfoPolicy is infoPolicy, for the specs and the fuzz target.
var InfoPolicy = infoPolicy
