/**
 * torchvision's `FashionMNIST.classes` (and Keras's documented label names), written out here for
 * the tests, apart from the dataset descriptor they check (data/datasets/mnist.ts).
 */
export const FASHION_MNIST_CLASSES = [
  'T-shirt/top',
  'Trouser',
  'Pullover',
  'Dress',
  'Coat',
  'Sandal',
  'Shirt',
  'Sneaker',
  'Bag',
  'Ankle boot',
];
