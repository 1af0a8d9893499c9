module example.com/outside

go 1.26.8

require github.com/toolout/toolout v0.0.0

replace github.com/toolout/toolout => ../../..
