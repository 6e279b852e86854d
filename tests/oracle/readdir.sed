/hist_debug$/d
s/ hist_debug( |$)/\1/
