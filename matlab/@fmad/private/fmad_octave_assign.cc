// Octave glue for MATLAB's promotion of a numeric array by indexed
// assignment of an fmad object:
//   y = zeros(n, 1);  y(i) = x(i)^2;      % y becomes an fmad object
// MATLAB dispatches the assignment to fmad's subsasgn; Octave instead looks
// for a type conversion and fails ("no conversion for assignment of 'class'
// to indexed 'matrix'"). This file registers that conversion: for each
// numeric type given by an example value, an assignment of an old-style
// class object converts the left side to fmad(lhs, zeros(numel(lhs), 0))
// (an fmad constant with no directions yet), whose subsasgn then performs
// the assignment and adopts the directions of the right side.
//
// Built on first use by fmad.m with mkoctfile; without it everything else
// works and such arrays must be preallocated with zeros(..., 'like', x).

#include <octave/oct.h>
#include <octave/interpreter.h>
#include <octave/parse.h>
#include <octave/ov-typeinfo.h>

static bool registered = false;

static octave_base_value *
promote_to_fmad (const octave_base_value& lhs)
{
  octave_value value (lhs.clone ());
  octave_value_list result
    = octave::feval ("fmad", ovl (value, Matrix (value.numel (), 0)), 1);
  return result(0).clone ();
}

DEFMETHOD_DLD (fmad_octave_assign, interp, args, ,
           "fmad_octave_assign (OBJECT, EXAMPLES...): register the promotion of the\n"
           "types of EXAMPLES to the class of OBJECT on indexed assignment (internal).")
{
  if (args.length () < 2)
    print_usage ();
  if (! registered)
    {
      octave::type_info& types = octave::__get_type_info__ ("fmad_octave_assign");
      int class_type = args(0).type_id ();
      for (int k = 1; k < args.length (); k++)
        {
          int numeric_type = args(k).type_id ();
          types.register_pref_assign_conv (numeric_type, class_type, class_type);
          types.register_widening_op (numeric_type, class_type, promote_to_fmad);
        }
      registered = true;
    }
  // The type table now points into this file: keep it loaded.
  interp.mlock ();
  return ovl (true);
}
