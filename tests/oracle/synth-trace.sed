/hist_debug$/d
