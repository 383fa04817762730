# terminal.gp: sets the terminal for the format in f ('png', 'svg' or 'pdf') at width x
# height pixels, and the output file out.f; every chart script loads it once per format.
# Text is drawn as given (noenhanced): names from the inputs are never markup.
if (f eq 'png') { set terminal pngcairo size width,height noenhanced font 'sans,10' }
if (f eq 'svg') { set terminal svg size width,height noenhanced font 'sans,10' background '#ffffff' }
if (f eq 'pdf') { set terminal pdfcairo size width/96.0,height/96.0 noenhanced font 'sans,10' }
set output out.'.'.f
