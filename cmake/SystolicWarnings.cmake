# Warning flags applied to every target of this project (not to dependencies).
function(systolic_set_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wno-unused-parameter
                         -Wno-sign-compare -Wno-missing-field-initializers)
  if(SYSTOLIC_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()
