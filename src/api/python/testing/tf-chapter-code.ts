/**
 * Python from the TensorFlow chapters as the original text spells it (its spacing and its
 * `minite` included), for the tests that run the chapters' code as written: the `printbar` that
 * stamps each epoch, the Reuters data on a smaller slice, and the Conv1D model.
 */

/**
 * The chapter's `@tf.function printbar()`: 80 `=` and the time of day (UTC+8) as hh:mm:ss.
 * `printArgs` is added to its `tf.print` call (`, output_stream=sys.stdout` to print to stdout).
 */
export function printbarCode(printArgs = ''): string {
  return `@tf.function
def printbar():
    today_ts = tf.timestamp()%(24*60*60)

    hour = tf.cast(today_ts//3600+8,tf.int32)%tf.constant(24)
    minite = tf.cast((today_ts%3600)//60,tf.int32)
    second = tf.cast(tf.floor(today_ts%60),tf.int32)

    def timeformat(m):
        if tf.strings.length(tf.strings.format("{}",m))==1:
            return(tf.strings.format("0{}",m))
        else:
            return(tf.strings.format("{}",m))

    timestring = tf.strings.join([timeformat(hour),timeformat(minite),
                timeformat(second)],separator = ":")
    tf.print("=========="*8+timestring${printArgs})`;
}

/** Reuters padded to 300 words, 64 training and 32 test documents, as `ds_train` and `ds_test`. */
export const REUTERS_DATA_CODE = `MAX_LEN = 300
BATCH_SIZE = 32
(x_train,y_train),(x_test,y_test) = datasets.reuters.load_data()
x_train = preprocessing.sequence.pad_sequences(x_train[:64],maxlen=MAX_LEN)
x_test = preprocessing.sequence.pad_sequences(x_test[:32],maxlen=MAX_LEN)
MAX_WORDS = x_train.max()+1
CAT_NUM = y_train.max()+1
y_train, y_test = y_train[:64], y_test[:32]
ds_train = tf.data.Dataset.from_tensor_slices((x_train,y_train)) \\
          .shuffle(buffer_size = 1000).batch(BATCH_SIZE) \\
          .prefetch(tf.data.experimental.AUTOTUNE).cache()
ds_test = tf.data.Dataset.from_tensor_slices((x_test,y_test)) \\
          .shuffle(buffer_size = 1000).batch(BATCH_SIZE) \\
          .prefetch(tf.data.experimental.AUTOTUNE).cache()`;

/** The chapter's `create_model()`: Embedding, two Conv1D + MaxPool1D, Flatten, Dense softmax. */
export const CREATE_MODEL_CODE = `def create_model():
    model = models.Sequential()
    model.add(layers.Embedding(MAX_WORDS,7,input_length=MAX_LEN))
    model.add(layers.Conv1D(filters = 64,kernel_size = 5,activation = "relu"))
    model.add(layers.MaxPool1D(2))
    model.add(layers.Conv1D(filters = 32,kernel_size = 3,activation = "relu"))
    model.add(layers.MaxPool1D(2))
    model.add(layers.Flatten())
    model.add(layers.Dense(CAT_NUM,activation = "softmax"))
    return(model)`;
