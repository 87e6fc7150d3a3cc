// What `jax.jit(mlp).lower(x, w1, b1, w2).as_text()` prints for a two-layer
// MLP with a GELU-like tanh activation and a softmax, written for this project.
module @jit_mlp attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<32x128xf32> {mhlo.layout_mode = "default"},
                         %arg1: tensor<128x256xf32> {mhlo.layout_mode = "default"},
                         %arg2: tensor<256xf32> {mhlo.layout_mode = "default"},
                         %arg3: tensor<256x10xf32> {mhlo.layout_mode = "default"})
      -> (tensor<32x10xf32> {jax.result_info = "", mhlo.layout_mode = "default"}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<32x128xf32>, tensor<128x256xf32>) -> tensor<32x256xf32> loc(#loc3)
    %1 = stablehlo.broadcast_in_dim %arg2, dims = [1] : (tensor<256xf32>) -> tensor<32x256xf32> loc(#loc4)
    %2 = stablehlo.add %0, %1 : tensor<32x256xf32> loc(#loc4)
    %3 = stablehlo.tanh %2 : tensor<32x256xf32> loc(#loc5)
    %4 = stablehlo.dot_general %3, %arg3, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<32x256xf32>, tensor<256x10xf32>) -> tensor<32x10xf32> loc(#loc6)
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %5 = stablehlo.reduce(%4 init: %cst) applies stablehlo.maximum across dimensions = [1] : (tensor<32x10xf32>, tensor<f32>) -> tensor<32xf32> loc(#loc7)
    %6 = stablehlo.broadcast_in_dim %5, dims = [0] : (tensor<32xf32>) -> tensor<32x10xf32> loc(#loc7)
    %7 = stablehlo.subtract %4, %6 : tensor<32x10xf32> loc(#loc7)
    %8 = stablehlo.exponential %7 : tensor<32x10xf32> loc(#loc7)
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %9 = stablehlo.reduce(%8 init: %cst_0) applies stablehlo.add across dimensions = [1] : (tensor<32x10xf32>, tensor<f32>) -> tensor<32xf32> loc(#loc7)
    %10 = stablehlo.broadcast_in_dim %9, dims = [0] : (tensor<32xf32>) -> tensor<32x10xf32> loc(#loc7)
    %11 = stablehlo.divide %8, %10 : tensor<32x10xf32> loc(#loc7)
    return %11 : tensor<32x10xf32>
  }
}
#loc1 = loc("mlp.py":14:0)
#loc2 = loc("mlp.py":15:0)
#loc3 = loc("jit(mlp)/jit(main)/dense_1/dot_general"(#loc1))
#loc4 = loc("jit(mlp)/jit(main)/dense_1/add"(#loc1))
#loc5 = loc("jit(mlp)/jit(main)/tanh"(#loc1))
#loc6 = loc("jit(mlp)/jit(main)/dense_2/dot_general"(#loc2))
#loc7 = loc("jit(mlp)/jit(main)/softmax"(#loc2))
